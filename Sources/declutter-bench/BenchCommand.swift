import ArgumentParser
import DeclutterClustering
import DeclutterCommandLine
import DeclutterGeometry
import DeclutterMap
import DeclutterMapContent
import DeclutterPlacement
import DeclutterRender
import DeclutterStyle
import DeclutterTesting
import DeclutterTileSources
import DeclutterTiles
import Foundation

/// `declutter-bench <area>` (or `declutter bench <area>`): measures one capability and prints its figures.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "declutter-bench",
        abstract: "Measure a capability (use a release build: swift run -c release declutter-bench …).")

    /// The capabilities that can be measured.
    enum Area: String, ExpressibleByArgument, CaseIterable {
        case markers
        case cluster
        case placement
        case sprites
        case diff
        case render
        case png
        case tiles
        case serve
    }

    @Argument(help: "What to measure: markers, cluster, placement, sprites, diff, render, png, tiles, serve.")
    var area: Area

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    @Option(help: "markers: how many icons to draw (at least 10,000 for the reported median).")
    var icons: Int = 10_000

    @Option(help: "cluster, tiles: how many seeded random points.")
    var points: Int = 1_000_000

    @Option(help: "cluster: the highest zoom clustered (default 16); tiles: the highest zoom written (default 14).")
    var maxZoom: Int?

    @Option(
        help: ArgumentHelp(
            "cluster, tiles: this file's points instead of random ones (- reads standard input).", valueName: "file"))
    var input: String?

    @OptionGroup(title: "cluster, tiles: reading --input") var inputOptions: PointInputOptions

    @Option(
        help: ArgumentHelp(
            "tiles: --input's property naming each point's category, as declutter tiles --category.", valueName: "prop")
    )
    var category: String?

    @Option(
        help: ArgumentHelp(
            "tiles: also time this tippecanoe and declutter tiles as whole processes, alternating.", valueName: "path"))
    var tippecanoe: String?

    @Option(
        help: ArgumentHelp(
            "tiles: how each zoom's clusters are made, as declutter tiles --placement: placed or supercluster.",
            valueName: "mode"))
    var placement: String = TilesetJob.Placement.placed.rawValue

    @Option(help: "placement: how many views.")
    var annotations: Int = 100_000

    @Option(help: "placement: time this many views of one clustering identifier crowded in a 300×300 square instead.")
    var crowded: Int?

    @Option(
        help: ArgumentHelp(
            "render: also keep the scene's files (tiles, points, route) in this folder.", valueName: "dir"))
    var scene: String?

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp(
            "diff: compare these two PNG files (decoded once) instead of the built-in map-like pair.",
            valueName: "a.png b.png"))
    var pair: [String] = []

    @Option(
        help:
            "render: how many maps to draw, the median reported (default 21); diff: comparisons per engine (default 21); tiles, serve: how many rounds (default 3)."
    )
    var runs: Int?

    @Option(
        help: ArgumentHelp(
            "render: draw over the embedded basemap instead of tiles (world); tiles: write the basemap's tiles too, as declutter tiles does unless --no-basemap, timed apart.",
            valueName: "world"))
    var basemap: String?

    @Option(help: "render: the zoom of the --basemap world map, 0…22.")
    var zoom: Double = 6

    @Option(
        help: ArgumentHelp("render: the centre of the --basemap world map, LAT,LON in degrees.", valueName: "lat,lon"))
    var center = CoordinateArgument(RenderBenchmark.athens)

    @Option(help: "render: also draw the same map tilted back by this pitch, 0…60, alternating with the flat one.")
    var pitch: Double?

    @Flag(
        help:
            "serve: also measure py-staticmaps in Flask under gunicorn (scripts/serve-peer; run from the package root), alternating."
    )
    var peer = false

    @Option(help: "serve: how long each wrk run lasts, in seconds.")
    var seconds: Int = 10

    @Option(help: ArgumentHelp("serve: the wrk to measure with (default: wrk on the PATH).", valueName: "path"))
    var wrk: String?

    @Option(
        help: ArgumentHelp(
            "serve: instead of the Paris map, maps of a dataset of many points (--input's, or 150,000 seeded) at these zooms (the URL's, of 512-pixel tiles), "
                + "the camera moving over 64 of its points.", valueName: "z,z,…"))
    var zooms: String?

    @Option(help: ArgumentHelp("serve --zooms: wrk's connections, one run each (default 8).", valueName: "n,n,…"))
    var connections: String = "8"

    @Option(
        help: ArgumentHelp(
            "serve: instead, one wrk run of this many seconds over random zooms 0…16 at the --zooms centres, "
                + "and the server's resident memory after the first minute and at the end.", valueName: "seconds"))
    var sweep: Int?

    /// A comma-separated list of whole numbers within `range`.
    static func numbers(_ text: String, option: String, in range: ClosedRange<Int>) throws -> [Int] {
        let values = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !values.isEmpty, values.allSatisfy({ $0.map(range.contains) ?? false }) else {
            throw ValidationError(
                "\(option) must be whole numbers in \(range.lowerBound)…\(range.upperBound) separated by commas, got \(text)"
            )
        }
        return values.compactMap { $0 }
    }

    func validate() throws {
        guard (1...20_000_000).contains(points) else { throw ValidationError("--points must be in 1…20,000,000") }
        if let maxZoom, !MapCamera.zoomRange.contains(Double(maxZoom)) {
            throw ValidationError("--max-zoom must be in \(MapCamera.zoomRangeText)")
        }
        guard (1...10_000_000).contains(annotations) else {
            throw ValidationError("--annotations must be in 1…10,000,000")
        }
        if let crowded, !(1...PlacementScene.maximumAnnotations).contains(crowded) {
            throw ValidationError("--crowded must be in 1…\(PlacementScene.maximumAnnotations)")
        }
        guard icons >= 1000 else { throw ValidationError("--icons must be at least 1000") }
        if let runs, !(1...10_000).contains(runs) { throw ValidationError("--runs must be in 1…10,000") }
        if !pair.isEmpty && pair.count != 2 { throw ValidationError("--pair takes two PNG files, got \(pair.count)") }
        if category != nil, input == nil {
            throw ValidationError("--category names a column of --input; seeded points have none")
        }
        if let tippecanoe, !FileManager.default.isExecutableFile(atPath: tippecanoe) {
            throw ValidationError("--tippecanoe must be an executable file, got \(tippecanoe)")
        }
        if tippecanoe != nil, input == "-" {
            throw ValidationError("--tippecanoe needs points it can read again: --input - cannot be")
        }
        guard (1...600).contains(seconds) else { throw ValidationError("--seconds must be in 1…600") }
        if let wrk, !FileManager.default.isExecutableFile(atPath: wrk) {
            throw ValidationError("--wrk must be an executable file, got \(wrk)")
        }
        if let basemap, basemap != "world" { throw ValidationError("--basemap must be world, got \(basemap)") }
        guard MapCamera.zoomRange.contains(zoom) else {
            throw ValidationError("--zoom must be in \(MapCamera.zoomRangeText)")
        }
        guard abs(center.coordinate.latitude) <= WebMercator.maximumLatitude else {
            throw ValidationError(
                "--center's latitude must be in -85.05…85.05 (Web Mercator), got \(center.defaultValueDescription)")
        }
    }

    func run() throws {
        #if DEBUG
            // Unoptimised code runs many times slower, and not evenly: its figures compare with nothing.
            FileHandle.standardError.write(
                Data(
                    "warning: this declutter-bench is a debug build; for figures, run `swift build -c release` and .build/release/declutter-bench\n"
                        .utf8))
        #endif
        switch area {
        case .markers:
            let result = try MarkerBenchmark(icons: icons).run()
            print(json ? result.json : result.text)
        case .cluster:
            let result = try ClusterBenchmark(
                pointCount: points, maxZoom: maxZoom ?? 16, input: input, inputOptions: inputOptions
            ).run()
            print(json ? result.json : result.text)
        case .placement:
            let views = crowded ?? annotations
            let (milliseconds, visible) = PlacementBenchmark(annotations: views, crowded: crowded != nil).run()
            let scene = crowded == nil ? "uniform" : "crowded"
            let figure = String(format: "%.2f", milliseconds)
            print(
                json
                    ? #"{"area":"placement","scene":"\#(scene)","annotations":\#(views),"ms":\#(figure),"visible":\#(visible)}"#
                    : "placement: \(figure) ms for \(views) \(scene) views (\(visible) visible)")
        case .sprites:
            let result = try SpritesBenchmark(runs: 5).run()
            print(json ? result.json : result.text)
        case .diff:
            let result = try DiffBenchmark(runs: runs ?? 21, pair: pair.count == 2 ? (pair[0], pair[1]) : nil).run()
            print(json ? result.json : result.text)
        case .render:
            let result = try RenderBenchmark(
                runs: runs ?? 21, sceneFolder: scene, worldZoom: basemap == nil ? nil : zoom,
                worldCenter: center.coordinate, pitch: pitch
            ).run()
            print(json ? result.json : result.text)
        case .png:
            let result = try PNGBenchmark(rounds: 5).run()
            print(json ? result.json : result.text)
        case .tiles:
            guard let mode = TilesetJob.Placement(rawValue: placement) else {
                throw CommandError("--placement must be placed or supercluster, got \(placement)")
            }
            var benchmark = TilesBenchmark(
                pointCount: points, maxZoom: maxZoom ?? 14, input: input, inputOptions: inputOptions,
                category: category,
                tippecanoe: tippecanoe, runs: runs ?? 3)
            benchmark.placement = mode
            benchmark.basemap = basemap != nil
            let result = try benchmark.run()
            print(json ? result.json : result.text)
        case .serve:
            guard let wrk = wrk ?? ServeBenchmark.wrkOnPath() else {
                throw CommandError(
                    "serve measures with wrk, which is not on the PATH (Debian: apt-get install wrk); or give --wrk PATH"
                )
            }
            if zooms != nil || sweep != nil {
                let result = try ServeZoomsBenchmark(
                    zooms: try Self.numbers(zooms ?? "2,4,8,12,16", option: "--zooms", in: 0...21),
                    connections: try Self.numbers(connections, option: "--connections", in: 1...10_000),
                    runs: runs ?? 3, seconds: seconds, wrk: wrk, peer: peer, input: input, sweep: sweep
                ).run()
                print(json ? result.json : result.text)
                return
            }
            let result = try ServeBenchmark(runs: runs ?? 3, seconds: seconds, wrk: wrk, peer: peer).run()
            print(json ? result.json : result.text)
        }
    }
}
