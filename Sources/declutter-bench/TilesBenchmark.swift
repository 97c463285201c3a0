import DeclutterClustering
import DeclutterCommandLine
import DeclutterInput
import DeclutterMap
import DeclutterMapContent
import DeclutterRender
import DeclutterStyle
import DeclutterSupport
import DeclutterTesting
import DeclutterTiles
import Foundation

/// Times `declutter tiles`'s whole job on seeded uniform points or a file's: the sprite sheet, the cluster index, and
/// every tile of zooms 0…max enumerated, encoded on every core and written as a PMTiles archive (in a temporary
/// folder, removed after). With tippecanoe, the same points are also written as CSV and `declutter tiles` and
/// tippecanoe are timed on it as whole processes, ours and theirs alternating round by round, so that the machine's
/// drift falls on both and each round gives a ratio.
struct TilesBenchmark {
    /// How many seeded uniform points, when there is no `input`.
    var pointCount: Int
    var maxZoom: Int
    /// A file of points instead of seeded ones.
    var input: String?
    /// How to read `input`.
    var inputOptions: PointInputOptions
    /// `input`'s property naming each point's category, as `declutter tiles --category`.
    var category: String?
    /// A tippecanoe executable to compare with.
    var tippecanoe: String?
    /// Rounds: each runs the job in process, and with `tippecanoe` both whole processes too.
    var runs: Int
    /// How the job makes each zoom's clusters, as `declutter tiles --placement`.
    var placement = TilesetJob.Placement.placed
    /// Whether the job writes the embedded basemap beside the tiles (`declutter tiles` without `--no-basemap`).
    var basemap = false

    /// tippecanoe's options besides input, output, layer and zooms: keep every point (`-r1`: no dropping of a fraction
    /// at low zooms, since clustering thins them) and cluster points about 40 units apart in its 256-unit tile.
    static let tippecanoeOptions = ["-r1", "--cluster-distance=40"]

    /// The median and range of one figure over the runs.
    struct Series {
        var values: [Double]
        var median: Double { values.isEmpty ? .nan : values.sorted()[values.count / 2] }
        var minimum: Double { values.min() ?? .nan }
        var maximum: Double { values.max() ?? .nan }

        /// `"name":median,"name_min":…,"name_max":…`, for the JSON object.
        func json(_ name: String, decimals: Int = 1) -> String {
            let places = Int32(decimals)  // `*` takes a C int
            return String(
                format: "\"%@\":%.*f,\"%@_min\":%.*f,\"%@_max\":%.*f", name, places, median, name, places, minimum,
                name, places, maximum)
        }

        /// `median (min–max)` in milliseconds, or seconds from 10 s up.
        var text: String {
            median >= 10_000
                ? String(format: "%.2f s (%.2f–%.2f)", median / 1000, minimum / 1000, maximum / 1000)
                : String(format: "%.0f ms (%.0f–%.0f)", median, minimum, maximum)
        }
    }

    /// One program run as a whole process, over the rounds.
    struct ProcessFigures {
        /// Wall time of each round, in milliseconds.
        var milliseconds = Series(values: [])
        /// The largest peak resident memory of the rounds; nil when it cannot be measured (no /usr/bin/time).
        var peakMegabytes: Double?
        /// The size of the tileset file it wrote.
        var fileBytes = 0

        mutating func add(_ measurement: TimedProcess.Measurement, fileBytes: Int) {
            milliseconds.values.append(measurement.seconds * 1000)
            if let peak = measurement.peakMegabytes { peakMegabytes = max(peakMegabytes ?? 0, peak) }
            self.fileBytes = fileBytes
        }

        var json: String {
            "{" + milliseconds.json("ms") + ",\"peak_mb\":"
                + (peakMegabytes.map { String(format: "%.1f", $0) } ?? "null")
                + ",\"file_bytes\":\(fileBytes)}"
        }

        /// The peak for text, or why there is none.
        var peakText: String {
            peakMegabytes.map { String(format: "peak %.1f MB", $0) } ?? "peak unknown (no /usr/bin/time)"
        }
    }

    struct Result {
        /// `uniform`, or the input file's name.
        var source: String
        var points: Int
        var maxZoom: Int
        var runs: Int
        /// How the job made each zoom's clusters.
        var placement: TilesetJob.Placement
        /// The whole job in process, and its parts.
        var total = Series(values: []), sprites = Series(values: []), index = Series(values: []),
            encodeWrite = Series(values: [])
        var tiles = 0
        /// With the basemap: the time its tiles took, how many, and its PMTiles archive's size.
        var basemapSeconds = Series(values: []), basemapTiles = 0, basemapFileBytes = 0
        /// The tiles' uncompressed MVT bytes, and the PMTiles archive's size (tiles gzipped, deduplicated).
        var mvtBytes = 0, fileBytes = 0
        /// This process's peak resident memory (VmHWM), the points and every in-process run included.
        var peakMegabytes = 0.0
        /// `declutter tiles` and tippecanoe as whole processes; nil without `--tippecanoe`.
        var process: ProcessFigures?, tippecanoe: ProcessFigures?

        var tilesPerSecond: Double { Double(tiles) / (total.median / 1000) }

        /// Ours over tippecanoe's time, round by round: in process, and as whole processes.
        var ratios: (inProcess: Series, process: Series)? {
            guard let process, let tippecanoe else { return nil }
            let theirs = tippecanoe.milliseconds.values
            return (
                Series(values: zip(total.values, theirs).map { $0 / $1 }),
                Series(values: zip(process.milliseconds.values, theirs).map { $0 / $1 })
            )
        }

        var json: String {
            var fields = [
                #""area":"tiles""#, "\"placement\":\"\(placement.rawValue)\"",
                "\"source\":" + JSONValue.string(source).jsonText, "\"points\":\(points)", "\"min_zoom\":0",
                "\"max_zoom\":\(maxZoom)",
                "\"runs\":\(runs)", "\"cores\":\(ProcessInfo.processInfo.activeProcessorCount)",
                total.json("total_ms"), sprites.json("sprites_ms"), index.json("index_ms"),
                encodeWrite.json("encode_write_ms"),
                "\"tiles\":\(tiles)", String(format: "\"tiles_per_s\":%.0f", tilesPerSecond),
                "\"mvt_bytes\":\(mvtBytes)",
                "\"file_bytes\":\(fileBytes)", String(format: "\"peak_mb\":%.1f", peakMegabytes),
            ]
            if !basemapSeconds.values.isEmpty {
                fields += [
                    basemapSeconds.json("basemap_ms"), "\"basemap_tiles\":\(basemapTiles)",
                    "\"basemap_file_bytes\":\(basemapFileBytes)",
                ]
            }
            if let process, let tippecanoe, let ratios {
                fields.append("\"process\":" + process.json)
                fields.append("\"tippecanoe\":" + tippecanoe.json)
                fields.append(
                    "\"ratio\":{" + ratios.inProcess.json("in_process", decimals: 3) + ","
                        + ratios.process.json("process", decimals: 3) + "}")
            }
            return "{" + fields.joined(separator: ",") + "}"
        }

        var text: String {
            func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }
            var lines = [
                "tiles: \(points) points (\(source)), zooms 0–\(maxZoom), \(placement.rawValue), \(runs) run\(runs == 1 ? "" : "s") (median, range)",
                "  in process: \(total.text): sprite sheet \(sprites.text), index \(index.text), encode+write \(encodeWrite.text)",
                "  \(tiles) tiles (\(String(format: "%.0f", tilesPerSecond)) a second), \(megabytes(mvtBytes)) of vector tiles, "
                    + "\(megabytes(fileBytes)) PMTiles; peak \(String(format: "%.1f", peakMegabytes)) MB",
            ]
            if !basemapSeconds.values.isEmpty {
                lines.append(
                    "  basemap (beside, not in the figures above): \(basemapSeconds.text), \(basemapTiles) tiles, "
                        + "\(megabytes(basemapFileBytes)) PMTiles")
            }
            if let process, let tippecanoe, let ratios {
                lines.append(
                    "  declutter tiles, whole process: \(process.milliseconds.text), \(process.peakText), "
                        + "\(megabytes(process.fileBytes)) PMTiles")
                lines.append(
                    "  tippecanoe \(TilesBenchmark.tippecanoeOptions.joined(separator: " ")), whole process: \(tippecanoe.milliseconds.text), "
                        + "\(tippecanoe.peakText), \(megabytes(tippecanoe.fileBytes)) MBTiles")
                lines.append(
                    String(
                        format:
                            "  declutter ÷ tippecanoe, round by round: in process %.3f–%.3f, whole process %.3f–%.3f",
                        ratios.inProcess.minimum, ratios.inProcess.maximum, ratios.process.minimum,
                        ratios.process.maximum))
            }
            return lines.joined(separator: "\n")
        }
    }

    /// A missing `declutter` beside this program.
    struct SetupError: Error, CustomStringConvertible {
        var description: String
    }

    func run() throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "declutter-bench-tiles-\(getpid())", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        // The points every run clusters, written as the CSV the whole processes read when there is a tippecanoe to
        // compare with. A file's points are read back from that CSV, so that the job in process too sees only their
        // positions and categories, as tippecanoe and `declutter tiles` do: its other columns would be properties
        // only this run encodes.
        let csv = folder.appendingPathComponent("points.csv")
        let points: [ClusterPoint]
        if let input {
            try Self.writeCSV(
                try inputOptions.read(input, category: category).points.points, category: category, to: csv)
            points = try PointInputOptions.parse([]).read(csv.path, category: category).points.points
        } else {
            var generator = SeededRandom(seed: 42)
            func random() -> Double { generator.next() }
            points = (0..<pointCount).map { _ in
                ClusterPoint(longitude: random() * 360 - 180, latitude: random() * 170 - 85)
            }
            if tippecanoe != nil { try Self.writeCSV(points, category: nil, to: csv) }
        }
        // The command's own style and preparation, so that the job is the one `declutter tiles` runs.
        var job = try TilesetJob(
            points: points, style: try StyleLocator.load("default"), categoryProperty: category,
            keepingIdentifiers: false)
        job.zooms = 0...maxZoom
        job.placement = placement
        job.basemap = basemap
        // Named as `declutter tiles` names the CSV's points, so that the job in process writes the archive the whole
        // process does.
        job.source = csv.lastPathComponent
        var result = Result(
            source: input.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "uniform", points: points.count,
            maxZoom: maxZoom,
            runs: runs, placement: placement)

        var declutter: URL?
        if tippecanoe != nil {
            declutter = try Self.declutterExecutable()
            result.process = ProcessFigures()
            result.tippecanoe = ProcessFigures()
        }

        for round in 0..<runs {
            var arms: [() throws -> Void] = [
                { try runInProcess(job, in: folder.appendingPathComponent("job-\(round)"), into: &result) }
            ]
            if let tippecanoe, let declutter {
                arms.append {
                    let runFolder = try Self.makeFolder(folder.appendingPathComponent("process-\(round)"))
                    let output = runFolder.appendingPathComponent("declutter.pmtiles")
                    let arguments =
                        [
                            "tiles", "--input", csv.path, "--output", output.path, "--max-zoom", "\(maxZoom)",
                            "--placement", placement.rawValue,
                        ] + (basemap ? [] : ["--no-basemap"])
                        + (category.map { ["--category", $0] } ?? [])
                    let measured = try TimedProcess(
                        executable: declutter.path, arguments: arguments, logFolder: runFolder
                    ).run()
                    result.process?.add(measured, fileBytes: try Self.size(of: output))
                    try FileManager.default.removeItem(at: runFolder)
                }
                arms.append {
                    let runFolder = try Self.makeFolder(folder.appendingPathComponent("tippecanoe-\(round)"))
                    let output = runFolder.appendingPathComponent("out.mbtiles")
                    let arguments =
                        ["-q", "-f", "-o", output.path, "-l", "points", "-Z0", "-z\(maxZoom)"] + Self.tippecanoeOptions
                        + [csv.path]
                    let measured = try TimedProcess(executable: tippecanoe, arguments: arguments, logFolder: runFolder)
                        .run()
                    result.tippecanoe?.add(measured, fileBytes: try Self.size(of: output))
                    try FileManager.default.removeItem(at: runFolder)
                }
            }
            // Every other round the other way round, so that neither side always runs on a machine the other warmed.
            // `declutter tiles` keeps the points it read while the job runs; so does this, for the same peak.
            try withExtendedLifetime(points) {
                for arm in round % 2 == 0 ? arms : arms.reversed() { try arm() }
            }
        }
        result.peakMegabytes = ClusterBenchmark.peakMegabytes()
        return result
    }

    /// Runs the job once in this process into `runFolder`, adds its figures to `result`, and removes what it wrote.
    private func runInProcess(_ job: TilesetJob, in runFolder: URL, into result: inout Result) throws {
        try Self.makeFolder(runFolder)
        let output = runFolder.appendingPathComponent("declutter.pmtiles")
        let start = DispatchTime.now().uptimeNanoseconds
        let summary = try job.write(to: output.path)
        result.total.values.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        result.sprites.values.append(summary.seconds.sprites * 1000)
        result.index.values.append(summary.seconds.index * 1000)
        result.encodeWrite.values.append(summary.seconds.tiles * 1000)
        result.tiles = summary.tiles
        result.mvtBytes = summary.bytes
        result.fileBytes = try Self.size(of: output)
        if basemap {
            result.basemapSeconds.values.append(summary.basemap.seconds * 1000)
            result.basemapTiles = summary.basemap.tiles
            result.basemapFileBytes = summary.basemap.stored
        }
        try FileManager.default.removeItem(at: runFolder)
    }

    /// The `declutter` built beside this program, which the whole-process runs time.
    static func declutterExecutable() throws -> URL {
        try declutterBesideThisOne(for: "--tippecanoe times declutter tiles as a whole process too")
    }

    /// Writes the points as tippecanoe and `declutter tiles` both read them: `lat,lon`, and the category column under
    /// its own name when there is one. Positions are written in Swift's shortest form that reads back to the same
    /// double, so both programs read the points this process clusters.
    static func writeCSV(_ points: [ClusterPoint], category: String?, to url: URL) throws {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let file = try FileHandle(forWritingTo: url)
        defer { try? file.close() }
        var text = "lat,lon" + (category.map { "," + csvField($0) } ?? "") + "\n"
        for point in points {
            guard let location = point.location else { continue }
            text += "\(location.latitude),\(location.longitude)"
            if category != nil { text += "," + csvField(point.category ?? "") }
            text += "\n"
            // Written in blocks, so that ten million points do not become one string in memory.
            if text.utf8.count >= 1 << 20 {
                try file.write(contentsOf: Data(text.utf8))
                text = ""
            }
        }
        try file.write(contentsOf: Data(text.utf8))
    }

    /// A CSV field, quoted when it holds a comma, a quote or a line break.
    static func csvField(_ value: String) -> String {
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    @discardableResult
    static func makeFolder(_ url: URL) throws -> URL {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func size(of url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
    }
}
