import DeclutterClustering
import DeclutterCommandLine
import DeclutterGeometry
import DeclutterTiles
import Foundation

/// Times building the cluster hierarchy for seeded uniform random points and querying it.
struct ClusterBenchmark {
    var pointCount: Int
    var maxZoom: Int
    var input: String?
    /// How to read `input`.
    var inputOptions: PointInputOptions

    struct Result {
        var indexMilliseconds: Double
        var queryMilliseconds: [String: Double]
        var peakMegabytes: Double
        var points: Int

        var json: String {
            let queries = queryMilliseconds.sorted { $0.key < $1.key }.map {
                String(format: "\"%@\":%.3f", $0.key, $0.value)
            }
            .joined(separator: ",")
            return String(
                format: "{\"area\":\"cluster\",\"points\":%d,\"index_ms\":%.1f,\"query_ms\":{%@},\"peak_mb\":%.1f}",
                points, indexMilliseconds, queries, peakMegabytes)
        }

        var text: String {
            let queries = queryMilliseconds.sorted { $0.key < $1.key }.map {
                String(format: "%@ %.2f ms", $0.key, $0.value)
            }
            .joined(separator: ", ")
            return String(
                format: "cluster: %d points indexed in %.1f ms; queries: %@; peak %.1f MB", points, indexMilliseconds,
                queries, peakMegabytes)
        }
    }

    func run() throws -> Result {
        let points: [ClusterPoint]
        if let input {
            points = try inputOptions.read(input).points.points
        } else {
            var generator = SeededRandom(seed: 42)
            func random() -> Double { generator.next() }
            points = (0..<pointCount).map { _ in
                ClusterPoint(longitude: random() * 360 - 180, latitude: random() * 170 - 85)
            }
        }
        let start = DispatchTime.now().uptimeNanoseconds
        let index = ClusterIndex(points: points, options: ClusterOptions(maxZoom: maxZoom, releasesFreedMemory: true))
        let indexMilliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6

        func time(_ body: () -> Void) -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        }
        var queries: [String: Double] = [:]
        for zoom in [0, 4, 8] {
            queries["z\(zoom)_world"] = time {
                _ = index.clusters(west: -180, south: -85, east: 180, north: 85, zoom: Double(zoom))
            }
        }
        // A 1024×768 viewport at zoom 10 around (10°E, 50°N).
        let scale = 512 * pow(2, 10.0) / 2
        let centerX = WebMercator.x(longitude: 10), centerY = WebMercator.y(latitude: 50)
        let halfWidth = 512 / (scale * 2) * 2, halfHeight = 384 / (scale * 2) * 2
        queries["z10_viewport"] = time {
            _ = index.clusters(
                west: WebMercator.longitude(x: centerX - halfWidth),
                south: WebMercator.latitude(y: centerY + halfHeight),
                east: WebMercator.longitude(x: centerX + halfWidth),
                north: WebMercator.latitude(y: centerY - halfHeight), zoom: 10)
        }
        return Result(
            indexMilliseconds: indexMilliseconds, queryMilliseconds: queries, peakMegabytes: Self.peakMegabytes(),
            points: points.count)
    }

    /// The process's peak resident memory (VmHWM), in megabytes.
    static func peakMegabytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kilobytes / 1024
    }
}
