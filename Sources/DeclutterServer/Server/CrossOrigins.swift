import HTTPTypes

/// The origins whose pages may read the server's answers (`serve --cors-origin`), and the headers that tell a browser
/// so: shared by the routes' ``CrossOriginMiddleware`` and the refusals written at the connection's edge, so that a
/// page reads the JSON error of a body refused as too large rather than a bare network failure.
struct CrossOrigins: Sendable {
    /// The origins allowed (`https://example.org`, as browsers send them), or `*` among them for every one.
    let origins: Set<String>

    /// The headers a page's script may read besides the CORS-safelisted ones.
    static var exposedHeaders: String {
        "ETag, Retry-After, Declutter-Missing-Tiles, Content-Range, Accept-Ranges, Content-Length"
    }

    /// What `Access-Control-Allow-Origin` says to `origin`; nil when it is not allowed.
    func allowedOrigin(_ origin: String) -> String? {
        if origins.contains("*") { return "*" }
        return origins.contains(origin) ? origin : nil
    }

    /// The headers an answer to a request from `origin` (nil: no `Origin` header) carries: the allowed origin and
    /// (`exposing`, all but a preflight's answer) the headers its page may read when it is allowed, and `Vary: Origin`
    /// whenever the answer depends on it (named origins, those without the header too), so that a cache does not give
    /// one origin's answer to another. None when no origin is allowed.
    func headers(answering origin: String?, exposing: Bool = true) -> [HTTPField] {
        guard !origins.isEmpty else { return [] }
        var headers: [HTTPField] = []
        if let origin, let allowed = allowedOrigin(origin) {
            headers.append(HTTPField(name: .accessControlAllowOrigin, value: allowed))
            if exposing { headers.append(HTTPField(name: .accessControlExposeHeaders, value: Self.exposedHeaders)) }
        }
        if !origins.contains("*") { headers.append(HTTPField(name: .vary, value: "Origin")) }
        return headers
    }

    /// Adds ``headers(answering:exposing:)`` to an answer's `fields`, `Vary` beside any it has.
    func mark(_ fields: inout HTTPFields, answering origin: String?, exposing: Bool = true) {
        for field in headers(answering: origin, exposing: exposing) {
            if field.name == .vary {
                fields[values: .vary].append(field.value)
            } else {
                fields[field.name] = field.value
            }
        }
    }
}
