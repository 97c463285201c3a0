import Hummingbird

/// Lets pages of other origins use the server (`serve --cors-origin`): maps, tiles, styles, sprites and glyphs are
/// public and asked for without cookies.
///
/// A request whose `Origin` is allowed is answered with `Access-Control-Allow-Origin` (`*` when every origin is, else
/// the origin itself with `Vary: Origin`) and the headers a page may read (`ETag`, `Retry-After`,
/// `Declutter-Missing-Tiles`, and `Content-Range` and `Accept-Ranges` for the pmtiles protocol), and with named origins
/// every answer, to any origin or none, carries `Vary: Origin`; a preflight (`OPTIONS`
/// with `Access-Control-Request-Method`) for a path the server answers gets 204 with that path's methods, the request
/// headers pages send allowed (`Content-Type` for a JSON `POST /static`, `Range` and `If-Match` for an archive read
/// by ranges) and a day's `Access-Control-Max-Age`. Other origins, and preflights for a path no route has, get the answer they would get
/// without it. It stands outside ``ServerMiddleware``, so that errors, which that one turns into answers, carry the
/// headers too: a page then reads the JSON error instead of a bare network failure.
struct CrossOriginMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The origins allowed.
    let origins: CrossOrigins

    /// The request headers a page may send besides the CORS-safelisted ones.
    static var allowedHeaders: String { "Content-Type, Range, If-Match, If-None-Match, If-Range" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let origin = request.headers[.origin]
        if let origin, origins.allowedOrigin(origin) != nil, request.method == .options,
            request.headers[.accessControlRequestMethod] != nil
        {
            let methods = RouteMethods.allowed(path: request.uri.path)
            if !methods.isEmpty {
                var response = Response(
                    status: .noContent,
                    headers: [
                        .accessControlAllowMethods: (methods + [.options]).map(\.rawValue).joined(separator: ", "),
                        .accessControlAllowHeaders: Self.allowedHeaders,
                        .accessControlMaxAge: "86400",
                    ])
                origins.mark(&response.headers, answering: origin, exposing: false)
                return response
            }
        }
        var response = try await next(request, context)
        origins.mark(&response.headers, answering: origin)
        return response
    }
}
