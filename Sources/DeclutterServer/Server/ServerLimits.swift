import DeclutterStaticAPI
import Foundation

/// What one request may ask of the server and how long a client may take, checked before the work they bound
/// (issue #24's safety rules, issue #37's timeouts).
public struct ServerLimits: Sendable, Hashable {
    /// Static-map URLs' and bodies' limits: URL length, width and height (1,280 by default as Mapbox), scale (3),
    /// overlays, points and path vertices per request.
    public var staticMap: StaticMapLimits
    /// Bytes in a request body (`POST /static`), 1 MiB by default.
    public var maximumBodyBytes: Int
    /// Seconds a render may take, queue included, 10 by default: a later answer is a 503, and a render not started by
    /// then is not started at all.
    public var renderSeconds: Double
    /// Basemap tiles one map may need, 256 by default as `declutter render`'s `--max-tiles` (a 1,280×1,280 map at
    /// @3x needs at most 256 tiles of 256 px).
    public var maximumTiles: Int
    /// Seconds from a connection's first byte of a request (or from its opening) to the end of the request's head,
    /// 10 by default; a head not in by then is answered 408 and the connection closed.
    public var headerSeconds: Double
    /// Seconds from the end of a request's head to the end of its body, 10 by default (at least 100 KB/s for a 1 MiB
    /// body); a body not in by then is answered 408 and the connection closed.
    public var bodySeconds: Double
    /// Seconds a kept-alive connection may wait for its next request, 30 by default; then it is closed.
    public var idleSeconds: Double
    /// Connections open at once; nil (the default) takes ``ServerLimits/defaultMaximumConnections()``, below the
    /// process's descriptor limit. At the limit a new connection closes the one that has waited longest without a
    /// request in progress, or is answered 503 when every connection is working.
    public var maximumConnections: Int?
    /// Maps that may wait on a tile server (`--tiles`) at once, each on a thread of its own, 8 by default; one more is
    /// answered 503 at once. Read when the server is made.
    public var fetchingMaps: Int
    /// Bytes of vector tiles kept once made, 64 MiB by default.
    public var vectorTileCacheBytes: Int
    /// Seconds a map request that finds every place of its class taken waits for one, holding no thread, before it is
    /// answered 503: 0.5 by default. Refused at once, a client asks again at once, and the refusals take the cores.
    public var admissionSeconds: Double
    /// Seconds the server gives the requests in flight to finish after SIGTERM, SIGINT or SIGHUP, 20 by default (a
    /// render's 10 and time to send it, inside the 30 s most supervisors wait before SIGKILL). Then the connections
    /// still open are closed and the process ends, without waiting for a render thread still drawing.
    public var shutdownSeconds: Double

    /// Creates limits; every argument defaults to the value documented on its property.
    public init(
        staticMap: StaticMapLimits = StaticMapLimits(), maximumBodyBytes: Int = 1 << 20, renderSeconds: Double = 10,
        maximumTiles: Int = 256, headerSeconds: Double = 10, bodySeconds: Double = 10, idleSeconds: Double = 30,
        maximumConnections: Int? = nil, fetchingMaps: Int = 8, vectorTileCacheBytes: Int = 64 << 20,
        admissionSeconds: Double = 0.5, shutdownSeconds: Double = 20
    ) {
        self.staticMap = staticMap
        self.maximumBodyBytes = maximumBodyBytes
        self.renderSeconds = renderSeconds
        self.maximumTiles = maximumTiles
        self.headerSeconds = headerSeconds
        self.bodySeconds = bodySeconds
        self.idleSeconds = idleSeconds
        self.maximumConnections = maximumConnections
        self.fetchingMaps = fetchingMaps
        self.vectorTileCacheBytes = vectorTileCacheBytes
        self.admissionSeconds = admissionSeconds
        self.shutdownSeconds = shutdownSeconds
    }

    /// Descriptors kept free of connections for the rest of the server: tile cache files, libcurl's sockets, MBTiles,
    /// the log. A server that runs out accepts nothing at all, not even `/health`.
    public static let reservedDescriptors = 128

    /// The most connections the process's descriptor limit (`ulimit -n`, the soft limit) leaves room for: the limit
    /// less ``reservedDescriptors`` (at least 16), and at most 10,000. With the common 1,024: 896.
    public static func defaultMaximumConnections() -> Int {
        min(10_000, max(16, descriptorLimit() - reservedDescriptors))
    }

    /// The process's soft limit on open descriptors; 1,024 when it cannot be read.
    public static func descriptorLimit() -> Int {
        var limit = rlimit()
        #if canImport(Glibc)
            let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return 1024 }
        // RLIM_INFINITY is the largest value, which clamping turns into Int.max.
        return Int(clamping: limit.rlim_cur)
    }

    /// ``maximumConnections``, or the default.
    var connectionLimit: Int { maximumConnections ?? Self.defaultMaximumConnections() }
}
