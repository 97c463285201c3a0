import DeclutterClustering
import DeclutterCommandLine
import DeclutterInput
import Foundation

/// `declutter-bench serve --zooms 2,4,8,12,16`: `declutter serve` with a dataset of many points (a file's, or 150,000
/// seeded towns over the world) drawing 600×400 maps at each zoom, the camera moving over 64 of the dataset's own
/// points (picked with a fixed seed, the same every run) so that each request is a map of somewhere else; wrk at
/// each number of connections. With `peer`, py-staticmaps (scripts/serve-peer, 2 gunicorn workers) draws the same
/// URLs with the points in view as its pins, measured round by round in alternating order.
///
/// With `sweep`, instead: one wrk run of that many seconds over random zooms 0…16 at the same centres, and the
/// server's resident memory after the first minute and at the end.
struct ServeZoomsBenchmark {
    var zooms: [Int]
    var connections: [Int]
    var runs: Int
    var seconds: Int
    var wrk: String
    var peer: Bool
    /// A CSV with `lat,lon` columns; nil writes seeded points.
    var input: String?
    /// Seconds of the memory sweep; nil measures the zooms.
    var sweep: Int?

    /// The centres the camera visits.
    static let centreCount = 64
    /// Seeded points when no file is given: as many as the real dataset has, crowded around towns.
    static let seededPoints = 150_000

    /// The dataset's points: `input`'s or seeded ones.
    func points() throws -> [ClusterPoint] {
        if let input { return try PointReader(skipInvalid: true).read(contentsOf: URL(fileURLWithPath: input)).points }
        var random = SeededRandom(seed: 37)
        let towns = (0..<3000).map { _ in (random.next() * 340 - 170, asin(random.next() * 1.6 - 0.8) * 180 / .pi) }
        return (0..<Self.seededPoints).map { index in
            let town = towns[index % towns.count], spread = 0.02 + 1.5 * random.next() * random.next()
            return ClusterPoint(
                longitude: town.0 + (random.next() - 0.5) * spread,
                latitude: town.1 + (random.next() - 0.5) * spread * 0.7)
        }
    }

    /// The camera centres: every n-th located point from a seeded start, as `lon,lat` with five decimals.
    static func centres(_ points: [ClusterPoint]) -> [String] {
        let located = points.compactMap(\.location)
        guard !located.isEmpty else { return ["0,0"] }
        var random = SeededRandom(seed: 12)
        return (0..<centreCount).map { _ in
            let point = located[Int(random.next() * Double(located.count)) % located.count]
            return String(format: "%.5f,%.5f", point.longitude, point.latitude)
        }
    }

    /// A wrk script that asks for `paths` in turn, each wrk thread from its own place in the list.
    static func script(paths: [String]) -> String {
        "paths = {" + paths.map { "\"\($0)\"" }.joined(separator: ", ") + "}\n" + """
            counter = 0
            setup = function(thread) thread:set("start", counter * 7); counter = counter + 1 end
            init = function(args) index = start or 0 end
            request = function()
              index = index + 1
              return wrk.format("GET", paths[(index % #paths) + 1])
            end

            """
    }

    /// A wrk script of random zooms 0…16 at the centres.
    static func sweepScript(centres: [String], dataset: String) -> String {
        "centres = {" + centres.map { "\"\($0)\"" }.joined(separator: ", ") + "}\n" + """
            request = function()
              local centre = centres[math.random(#centres)]
              return wrk.format("GET", "/datasets/\(dataset)/static/" .. centre .. "," .. math.random(0, 16) .. "/600x400")
            end

            """
    }

    /// The path of a map of `centre` at `zoom`.
    static func path(centre: String, zoom: Int) -> String {
        "/datasets/\(ServeBenchmark.dataset)/static/\(centre),\(zoom)/600x400"
    }

    /// Resident memory of a process in MiB, from /proc; nil where there is none.
    static func residentMegabytes(_ pid: pid_t) -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { return nil }
        return kilobytes / 1024
    }
}
