import Foundation
import Metrics
import Prometheus
import Synchronization

/// The server's metrics in a registry of its own, written in Prometheus' text format by `GET /metrics`: requests
/// and their latency per route, renders in flight, the render queue's length,
/// and with HTTP tiles the tile cache's hits and misses.
///
/// Metrics are recorded through swift-metrics with a factory bound to this registry, not the process-wide one, so
/// that two servers in one process (as in tests) keep their counts apart.
public final class ServerMetrics: Sendable {
    /// The registry `/metrics` writes out.
    public let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    /// The tile source's totals when last recorded.
    private let tileCacheTotals = Mutex((hits: 0, misses: 0))
    /// Each work class's refusals when last recorded.
    private let refusedTotals = Mutex<[String: Int]>([:])
    /// Each cache's totals when last recorded.
    private let cacheTotals = Mutex<[String: (hits: Int, misses: Int)]>([:])

    /// Creates an empty registry.
    public init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        // Static maps take milliseconds; the default buckets start at 5 ms.
        factory.defaultDurationHistogramBuckets = [
            0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
        ].map {
            Duration.milliseconds(Int64($0 * 1000 * 1000) / 1000)
        }
        self.factory = factory
    }

    /// Counts a request answered with `status` on `route` (the route's pattern, `NotFound` for none) and records how
    /// long it took.
    public func recordRequest(route: String, method: String, status: Int, nanoseconds: UInt64) {
        Counter(
            label: "declutter_http_requests_total",
            dimensions: [("route", route), ("method", method), ("status", String(status))],
            factory: factory
        ).increment()
        Metrics.Timer(
            label: "declutter_http_request_duration_seconds", dimensions: [("route", route), ("method", method)],
            factory: factory
        )
        .recordNanoseconds(Int64(clamping: nanoseconds))
    }

    /// Counts a request refused at the server's edge, before any route saw it (a malformed or slow head, a refused
    /// `Expect`, a duplicate `Host`), as route `edge` and method `-` in `declutter_http_requests_total`: the method
    /// of a request the parser refused is not known.
    public func recordEdgeRefusal(status: Int) {
        Counter(
            label: "declutter_http_requests_total",
            dimensions: [("route", "edge"), ("method", "-"), ("status", String(status))], factory: factory
        ).increment()
    }

    /// Records the render pool's state: maps being drawn and maps waiting for a thread.
    public func recordPool(running: Int, queued: Int) {
        Gauge(label: "declutter_renders_in_flight", factory: factory).record(running)
        Gauge(label: "declutter_render_queue_length", factory: factory).record(queued)
    }

    /// Brings the tile cache's counters up to a source's totals: tiles taken from the cache, and tiles asked of the
    /// tile server.
    public func recordTileCache(hits: Int, misses: Int) {
        let (newHits, newMisses) = tileCacheTotals.withLock { totals in
            defer { totals = (max(totals.hits, hits), max(totals.misses, misses)) }
            return (max(0, hits - totals.hits), max(0, misses - totals.misses))
        }
        Counter(label: "declutter_tile_cache_hits_total", factory: factory).increment(by: newHits)
        Counter(label: "declutter_tile_cache_misses_total", factory: factory).increment(by: newMisses)
    }

    /// Records a work class's state (`maps`, `fetch`, `tiles`): jobs on its threads, jobs waiting, and requests refused
    /// since the server started.
    public func recordWork(class name: String, running: Int, queued: Int, refused: Int) {
        Gauge(label: "declutter_work_running", dimensions: [("class", name)], factory: factory).record(running)
        Gauge(label: "declutter_work_queued", dimensions: [("class", name)], factory: factory).record(queued)
        let added = refusedTotals.withLock { totals in
            defer { totals[name] = max(totals[name, default: 0], refused) }
            return max(0, refused - totals[name, default: 0])
        }
        Counter(label: "declutter_work_refused_total", dimensions: [("class", name)], factory: factory).increment(
            by: added)
    }

    /// Records a cache's bytes held, and brings its lookup counters up to its totals.
    public func recordCache(name: String, bytes: Int, hits: Int, misses: Int) {
        Gauge(label: "declutter_cache_bytes", dimensions: [("cache", name)], factory: factory).record(bytes)
        let (newHits, newMisses) = cacheTotals.withLock { totals in
            let old = totals[name, default: (0, 0)]
            totals[name] = (max(old.hits, hits), max(old.misses, misses))
            return (max(0, hits - old.hits), max(0, misses - old.misses))
        }
        Counter(label: "declutter_cache_hits_total", dimensions: [("cache", name)], factory: factory).increment(
            by: newHits)
        Counter(label: "declutter_cache_misses_total", dimensions: [("cache", name)], factory: factory).increment(
            by: newMisses)
    }

    /// Counts a connection the server closed or refused at its edge: `evicted` (closed to make room at the
    /// connection limit), `refused` (answered 503 at the limit), `header_timeout`, `body_timeout`, `idle_timeout`.
    public func recordConnectionClosed(reason: String) {
        Counter(label: "declutter_connections_closed_total", dimensions: [("reason", reason)], factory: factory)
            .increment()
    }

    /// The metrics in Prometheus' text format.
    public func text() -> String { registry.emitToString() }
}
