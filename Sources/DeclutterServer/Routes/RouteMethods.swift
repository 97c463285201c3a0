import Hummingbird

/// The server's routes by path pattern and the methods each answers, so that a request with a method a path does not
/// answer gets 405 and `Allow` rather than the router's 404: the router knows routes by method and path together.
///
/// `*` stands for one segment, `**` for one or more; every GET route answers HEAD too. ``MapServer/router()`` adds
/// the same routes; HTTPFramingTests sends a wrong method to each kind.
enum RouteMethods {
    /// Each route's pattern, as segments, and its methods.
    static let routes: [(segments: [String], methods: [HTTPRequest.Method])] = [
        ("health", [.get, .head]), ("metrics", [.get, .head]), ("static", [.post]),
        ("styles/v1/**", [.get, .head]), ("datasets/*/static/*/*", [.get, .head]),
        ("tiles/*/*/*/*", [.get, .head]), ("tiles/*", [.get, .head]), ("styles/*/*", [.get, .head]),
        ("glyphs/*/*/*", [.get, .head]), ("tilesets/*", [.get, .head]), ("tilesets/*/*", [.get, .head]),
        ("tilesets/*/glyphs/*/*", [.get, .head]), ("", [.get, .head]), ("maps/*", [.get, .head]),
        ("maplibre/*", [.get, .head]),
    ].map { (pattern: String, methods: [HTTPRequest.Method]) in
        (pattern.split(separator: "/").map(String.init), methods)
    }

    /// The methods some route answers at `path`, in the order above; empty when no route has that path.
    static func allowed(path: String) -> [HTTPRequest.Method] {
        // A target that is no path (`CONNECT`'s `host:443`) has no route.
        guard path.hasPrefix("/") else { return [] }
        // The root, `/`, has no segment (the viewer's index page).
        let segments =
            path == "/" ? [][...] : path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
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
        var refusal = ServerError(
            .methodNotAllowed, field: "method",
            "\(method.prefix(20)) is not allowed here; \(path.prefix(64)) answers "
                + allowed.map(\.rawValue).joined(separator: ", "))
        refusal.allow = allowed
        return refusal
    }

    /// Whether a path's segments fit a pattern's.
    private static func matches(_ pattern: [String], _ segments: ArraySlice<Substring>) -> Bool {
        var rest = segments
        for (index, part) in pattern.enumerated() {
            if part == "**" { return index == pattern.count - 1 && !rest.isEmpty && rest.allSatisfy { !$0.isEmpty } }
            guard let segment = rest.first, !segment.isEmpty, part == "*" || segment == part else { return false }
            rest = rest.dropFirst()
        }
        return rest.isEmpty
    }
}
