import ArgumentParser
import DeclutterClustering
import DeclutterCommandLine
import DeclutterGeometry
import DeclutterInput
import DeclutterMap
import DeclutterRender
import DeclutterServer
import DeclutterStaticAPI
import DeclutterStyle
import DeclutterSupport
import DeclutterTileSources
import DeclutterTiles
import Foundation

/// `declutter demo`: two maps from data shipped with the package, no network needed.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract:
            "Render two maps from the package's own data: the TANDm sample (tandm.png) and the world's airports (airports.png).",
        discussion: """
            With --write-examples it writes the example inputs the other commands' help uses instead (places.csv, \
            stops.geojson, tandm.plist, airports.csv, …, as the package's Examples folder holds them), so that every \
            example runs from a copied declutter in an empty folder.

            Examples:
              declutter demo --output-directory maps
              declutter demo --write-examples Examples
              declutter render --input Examples/places.csv --category kind \\
                --legend --output europe.png
            """)

    @Option(help: ArgumentHelp("The folder to write the maps into; created when missing.", valueName: "dir"))
    var outputDirectory: String = "."

    @Option(
        help: ArgumentHelp(
            "Write the example inputs into this folder (created when missing) instead of drawing the maps; files already there are not replaced.",
            valueName: "dir"))
    var writeExamples: String?

    @Option(help: "Pixels per point: 1, 2 or 3.")
    var scale: Int = 2

    func validate() throws {
        guard (1...3).contains(scale) else { throw ValidationError("--scale must be 1, 2 or 3, got \(scale)") }
    }

    func run() throws {
        if let writeExamples { return try Self.writeExamples(into: writeExamples) }
        let folder = URL(fileURLWithPath: outputDirectory, isDirectory: true)
        if FileSystem.item(atPath: folder.path) == .file {
            throw CommandError("\(outputDirectory): is a file, not a folder; pick another with --output-directory")
        }
        let maps = [
            ("tandm.png", try Self.tandmMap(scale: Double(scale))),
            ("airports.png", try Self.airportsMap(scale: Double(scale))),
        ]
        var files: [(name: String, data: Data)] = []
        var lines: [String] = [], notes: [String] = []
        for (name, map) in maps {
            let output = try map.draw(format: .png)
            files.append((name, try output.canvas.data()))
            lines.append(
                MapSummary.line(output, path: folder.appendingPathComponent(name).path, scale: map.scale, format: .png))
            if let note = output.hiddenPointsNote { notes.append("note: \(name): \(note)\n") }
        }
        // Created only once both maps are drawn, so a failure leaves no empty folder behind.
        try FileSystem.writeAllAtomically(files, into: folder, creatingFolder: true)
        try StandardOutput.print(lines.joined(separator: "\n"))
        notes.forEach { StandardError.write($0) }
    }

    /// Writes the bundled example inputs into `path`, all of them or none.
    ///
    /// - Throws: ``CommandError`` when a file is there already or the build carries no examples.
    static func writeExamples(into path: String) throws {
        let folder = URL(fileURLWithPath: path, isDirectory: true)
        var files: [(name: String, data: Data)] = []
        for example in BundledFiles.examplePaths {
            guard let data = BundledFiles.data(example) else { continue }
            files.append((String(example.dropFirst("Examples/".count)), data))
        }
        guard !files.isEmpty else { throw CommandError("the example inputs are missing from this build of declutter") }
        // Someone's own edits of an example stay theirs.
        if let there = files.first(where: {
            FileSystem.item(atPath: folder.appendingPathComponent($0.name).path) != nil
        }) {
            throw CommandError(
                "--write-examples: \(folder.appendingPathComponent(there.name).relativePath) exists already; "
                    + "write the examples into another folder")
        }
        try FileSystem.writeAllAtomically(files, into: folder, creatingFolder: true)
        try StandardOutput.print(
            "wrote \(files.count) example inputs into \(path): \(files.map(\.name).joined(separator: ", "))")
    }

    /// The demo's points from a data file compiled into the binary.
    static func read(_ name: String, reader: PointReader = PointReader()) throws -> PointReader.Result {
        guard let data = BundledFiles.data("Sources/CDeclutterResources/Demo/\(name)") else {
            throw CommandError("the demo's data \(name) is missing from this build of declutter")
        }
        return try reader.read(data, name: name)
    }

    /// The TANDm sample's 65 cycles on the region the app opens on, in its own style.
    static func tandmMap(scale: Double) throws -> MapDescription {
        let read = try read("tandm-Data.plist")
        var map = MapDescription(points: read.points, style: try StyleLocator.load("tandm"))
        if let region = read.region {
            map.framing = .region(region, padding: EdgePadding(all: 0), maxZoom: MapCamera.zoomRange.upperBound)
        }
        map.width = 390
        map.height = 600
        map.scale = scale
        map.furniture.scaleBar = true
        return map
    }

    /// The world's airports, coloured by the region of their time zone.
    static func airportsMap(scale: Double) throws -> MapDescription {
        let read = try read("airports.csv", reader: PointReader(categoryProperty: "tz"))
        let regions = [
            "America": "america", "Europe": "europe", "Africa": "africa", "Asia": "asia", "Australia": "oceania",
            "Pacific": "oceania",
        ]
        var points = read.points
        for index in points.indices {
            let zone = points[index].category ?? ""
            points[index].category = regions[String(zone.split(separator: "/").first ?? "")] ?? "other"
            points[index].id = points[index].properties["icao"]
        }
        var map = MapDescription(points: points, style: try StyleLocator.load("airports"))
        map.width = 1024
        map.height = 560
        map.scale = scale
        map.framing = .centered(Coordinate(longitude: 10, latitude: 25), zoom: 2)
        map.furniture.attribution = "Made with Natural Earth · airports: mwgg/Airports (MIT)"
        map.furniture.legend = true
        map.furniture.legendTitle = "Airports by time zone"
        return map
    }
}
