import Hummingbird

/// The server's routes by path pattern and the methods each answers, so that a request with a method a path does not
/// answer gets 405 and `Allow` rather than the router's 404: the router knows routes by method and path together.
///
/// Patterns are the router's own: `:name` stands for one segment, `**` for one or more; every GET route answers HEAD
/// too. ``MapServer/router()`` adds the same routes; HTTPFramingTests sends a wrong method to each kind.
enum RouteMethods {
    /// Each route's pattern, its segments and its methods, the more particular of two that take the same paths first.
    static let routes: [(pattern: String, segments: [String], methods: [HTTPRequest.Method])] = [
        ("/health", [.get, .head]), ("/metrics", [.get, .head]), ("/static", [.post]),
        ("/styles/v1/**", [.get, .head]), ("/datasets/:name/static/:camera/:size", [.get, .head]),
        ("/tiles/:name/clusters/:id/:query", [.get, .head]), ("/tiles/:name/:z/:x/:file", [.get, .head]),
        ("/tiles/:name", [.get, .head]), ("/styles/:style/:file", [.get, .head]),
        ("/glyphs/:name/:stack/:range", [.get, .head]), ("/basemap/:z/:x/:file", [.get, .head]),
        ("/tilesets/:name", [.get, .head]), ("/tilesets/:name/glyphs/:stack/:range", [.get, .head]),
        ("/tilesets/:name/:file", [.get, .head]), ("/", [.get, .head]), ("/maps/:name", [.get, .head]),
        ("/maplibre/:file", [.get, .head]),
    ].map { (pattern: String, methods: [HTTPRequest.Method]) in
        (pattern, pattern.split(separator: "/").map { $0.hasPrefix(":") ? "*" : String($0) }, methods)
    }

    /// The pattern of the first route at `path` as Hummingbird names a route it took (`/tiles/{name}/{z}/{x}/{file}`);
    /// nil for none.
    static func pattern(path: String) -> String? {
        guard let route = routes.first(where: { matches($0.segments, segments(path)) }) else { return nil }
        let parts = route.pattern.split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }
        return "/" + parts.joined(separator: "/")
    }

    /// A path's segments, empty ones left out as the router leaves them out (it answers `//health` and `/health/` as
    /// `/health`; the root, `/`, has none); a target that is no path (`CONNECT`'s `host:443`) has none, and fits no
    /// route.
    private static func segments(_ path: String) -> ArraySlice<Substring>? {
        guard path.hasPrefix("/") else { return nil }
        return path.split(separator: "/")[...]
    }

    /// The methods some route answers at `path`, in the order above; empty when no route has that path.
    static func allowed(path: String) -> [HTTPRequest.Method] {
        let segments = segments(path)
        var methods: [HTTPRequest.Method] = []
        for route in routes where matches(route.segments, segments) {
            for method in route.methods where !methods.contains(method) { methods.append(method) }
        }
        return methods
    }

    /// The answer to `method` at `path` when no route takes it: 405 with `Allow` where other methods are answered there,
    /// else 404.
    static func refusal(method: String, path: String) -> ServerError {
        let allowed = allowed(path: path)
        guard !allowed.isEmpty, !allowed.contains(where: { $0.rawValue == method }) else {
            return ServerError(.notFound, field: "path", "no route for \(method.prefix(20)) \(path.prefix(200))")
        }
        // A long path is shown by its start, marked as cut.
        let shown = path.count > 64 ? path.prefix(63) + "…" : path[...]
        var refusal = ServerError(
            .methodNotAllowed, field: "method",
            "\(method.prefix(20)) is not allowed here; \(shown) answers "
                + allowed.map(\.rawValue).joined(separator: ", "))
        refusal.allow = allowed
        return refusal
    }

    /// Whether a path's segments fit a pattern's.
    private static func matches(_ pattern: [String], _ segments: ArraySlice<Substring>?) -> Bool {
        guard var rest = segments else { return false }
        for (index, part) in pattern.enumerated() {
            if part == "**" { return index == pattern.count - 1 && !rest.isEmpty }
            guard let segment = rest.first, part == "*" || segment == part else { return false }
            rest = rest.dropFirst()
        }
        return rest.isEmpty
    }
}
