import Hummingbird

/// Lets pages of any origin use the server: maps, tiles, styles and sprites are public, asked for without cookies.
///
/// A request with an `Origin` header is answered with `Access-Control-Allow-Origin: *` and the headers a page may read
/// (`ETag`, `Retry-After`, `Declutter-Missing-Tiles`); a preflight (`OPTIONS` with `Access-Control-Request-Method`)
/// for a path the server answers gets 204 with that path's methods, `Content-Type` allowed (a JSON `POST /static`
/// needs it) and a day's `Access-Control-Max-Age`. A preflight for a path no route has goes on to the 404. It stands
/// outside ``ServerMiddleware``, so that errors, which that one turns into answers, carry the headers too: a page
/// then reads the JSON error instead of a bare network failure.
struct CrossOriginMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The headers a page's script may read besides the CORS-safelisted ones.
    static var exposedHeaders: String { "ETag, Retry-After, Declutter-Missing-Tiles" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard request.headers[.origin] != nil else { return try await next(request, context) }
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            let methods = RouteMethods.allowed(path: request.uri.path)
            if !methods.isEmpty {
                return Response(
                    status: .noContent,
                    headers: [
                        .accessControlAllowOrigin: "*",
                        .accessControlAllowMethods: (methods + [.options]).map(\.rawValue).joined(separator: ", "),
                        .accessControlAllowHeaders: "Content-Type",
                        .accessControlMaxAge: "86400",
                    ])
            }
        }
        var response = try await next(request, context)
        response.headers[.accessControlAllowOrigin] = "*"
        response.headers[.accessControlExposeHeaders] = Self.exposedHeaders
        return response
    }
}
