import Foundation
import Metrics
import Prometheus

/// The server's metrics in a registry of its own, written in Prometheus' text format by `GET /metrics`: requests
/// and their latency per route, renders in flight, the render queue's length.
///
/// Metrics are recorded through swift-metrics with a factory bound to this registry, not the process-wide one, so
/// that two servers in one process (as in tests) keep their counts apart.
public final class ServerMetrics: Sendable {
    /// The registry `/metrics` writes out.
    public let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory

    /// Creates an empty registry.
    public init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        // Static maps take milliseconds; the default buckets start at 5 ms.
        factory.defaultDurationHistogramBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10].map {
            Duration.milliseconds(Int64($0 * 1000 * 1000) / 1000)
        }
        self.factory = factory
    }

    /// Counts a request answered with `status` on `route` (the route's pattern, `NotFound` for none) and records how
    /// long it took.
    public func recordRequest(route: String, method: String, status: Int, nanoseconds: UInt64) {
        Counter(label: "declutter_http_requests_total", dimensions: [("route", route), ("method", method), ("status", String(status))],
                factory: factory).increment()
        Metrics.Timer(label: "declutter_http_request_duration_seconds", dimensions: [("route", route), ("method", method)], factory: factory)
            .recordNanoseconds(Int64(clamping: nanoseconds))
    }

    /// Records the render pool's state: maps being drawn and maps waiting for a thread.
    public func recordPool(running: Int, queued: Int) {
        Gauge(label: "declutter_renders_in_flight", factory: factory).record(running)
        Gauge(label: "declutter_render_queue_length", factory: factory).record(queued)
    }

    /// Counts a basemap tile taken from the tile cache (`hit`) or fetched.
    public func recordTile(hit: Bool) {
        Counter(label: hit ? "declutter_tile_cache_hits_total" : "declutter_tile_cache_misses_total", factory: factory).increment()
    }

    /// The metrics in Prometheus' text format.
    public func text() -> String { registry.emitToString() }
}
