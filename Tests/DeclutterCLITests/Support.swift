import DeclutterGeometry
import DeclutterMapContent
import DeclutterRender
import DeclutterStaticAPI
import DeclutterStyle
import Foundation

/// Runs the built `declutter` executable, which sits beside the test bundle.
struct CommandResult {
    var status: Int32
    var stdout: String
    var stderr: String

    /// Runs `executable` (the built `declutter` by default) in `folder` with `stdin` as its standard input (nil: the
    /// test's own), with `environment` added to this process's and the variables named in `removing` taken out.
    /// With `stdoutFile`, standard output goes there (e.g. /dev/full) and `stdout` is empty.
    static func run(
        _ arguments: [String], in folder: URL, environment: [String: String] = [:], stdin: Data? = nil,
        executable: URL? = nil, removing: [String] = [], stdoutFile: String? = nil
    ) throws -> CommandResult {
        var variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        removing.forEach { variables[$0] = nil }
        // Started with posix_spawn, not Foundation's Process: see ChildProcess.
        var out: [Int32] = [0, 0], err: [Int32] = [0, 0], input: [Int32] = [0, 0]
        guard pipe(&out) == 0, pipe(&err) == 0, pipe(&input) == 0 else { throw CocoaError(.fileWriteUnknown) }
        var output = out[1]
        if let stdoutFile {
            output = open(stdoutFile, O_WRONLY)
            guard output >= 0 else { throw CocoaError(.fileNoSuchFile) }
        }
        let child: ChildProcess
        do {
            child = try ChildProcess(
                (executable ?? declutterExecutable).path, arguments: arguments, in: folder.path, environment: variables,
                input: stdin == nil ? nil : input[0], output: output, error: err[1])
        } catch {
            for descriptor in out + err + input { close(descriptor) }
            if stdoutFile != nil { close(output) }
            throw error
        }
        // The child holds its own ends now; with them closed here, each read ends when the child's side closes.
        for descriptor in [out[1], err[1], input[0]] { close(descriptor) }
        if stdoutFile != nil { close(output) }
        let writer = FileHandle(fileDescriptor: input[1], closeOnDealloc: true)
        if let stdin {
            // Written beside the reads below, so that neither side waits on a full pipe.
            DispatchQueue.global().async {
                try? writer.write(contentsOf: stdin)
                try? writer.close()
            }
        } else {
            try? writer.close()
        }
        // Standard output read on a thread of its own, so that a child filling the error pipe never waits on it.
        let outputReader = FileHandle(fileDescriptor: out[0], closeOnDealloc: true)
        let gathered = DispatchGroup(), stdoutBox = DataBox()
        DispatchQueue.global().async(group: gathered) { stdoutBox.data = outputReader.readDataToEndOfFile() }
        let stderr = FileHandle(fileDescriptor: err[0], closeOnDealloc: true).readDataToEndOfFile()
        gathered.wait()
        let status = child.wait()
        return CommandResult(
            status: status, stdout: String(decoding: stdoutBox.data, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// The bytes read on another thread, handed back once it is done (the group's wait orders the two).
    private final class DataBox: @unchecked Sendable {
        var data = Data()
    }
}

/// The built `declutter`, beside the test bundle.
let declutterExecutable = URL(fileURLWithPath: Bundle.main.executablePath ?? CommandLine.arguments[0])
    .deletingLastPathComponent().appendingPathComponent("declutter")

/// A fresh folder for one test's files.
func scratchFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("declutter-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let tandmStyle = packageRoot.appendingPathComponent("Styles/tandm.json").path

/// The TANDm sample's points, shipped with the command for its demo.
let tandmPlist = packageRoot.appendingPathComponent("Sources/CDeclutterResources/Demo/tandm-Data.plist").path

/// Writes 8×3 street-like test tiles at zoom 15 from the Golden Gate to North Beach, as `DIR/{z}/{x}/{y}.png`.
func writeTestTiles(into folder: URL) throws -> URL {
    try writeTestTiles((5235...5242).flatMap { x in (12660...12662).map { TileKey(z: 15, x: x, y: $0) } }, into: folder)
}

/// Writes street-like test tiles for `keys` as `DIR/tiles/{z}/{x}/{y}.png`; returns the tiles' folder.
func writeTestTiles(_ keys: [TileKey], into folder: URL) throws -> URL {
    let tiles = folder.appendingPathComponent("tiles")
    for key in keys {
        let canvas = try Canvas(width: 256, height: 256, format: .png)
        let context = canvas.context
        context.paint(RGBAColor(hex: "#EDEAE2") ?? .white)
        // A grid of streets whose spacing differs per tile, so a misplaced tile shows.
        let spacing = 32.0 + Double((key.x + key.y) % 3) * 16
        var offset = spacing / 2
        while offset < 256 {
            context.newPath()
            context.move(toX: offset, y: 0)
            context.line(toX: offset, y: 256)
            context.move(toX: 0, y: offset)
            context.line(toX: 256, y: offset)
            context.strokeRound(.white, width: 4)
            offset += spacing
        }
        let file = tiles.appendingPathComponent("\(key.z)/\(key.x)/\(key.y).png")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try canvas.data().write(to: file)
    }
    return tiles
}

/// Writes `stops.geojson` (a blue start at the Golden Gate Bridge, an orange end in the Presidio) and returns the
/// encoded polyline of a route between them.
func writeGoldenGateStops(into folder: URL) throws -> String {
    let points =
        #"{"type":"FeatureCollection","features":["#
        + #"{"type":"Feature","id":"start","properties":{"kind":"blue"},"geometry":{"type":"Point","coordinates":[-122.4783,37.8199]}},"#
        + #"{"type":"Feature","id":"end","properties":{"kind":"orange"},"geometry":{"type":"Point","coordinates":[-122.4560,37.8030]}}]}"#
    try Data(points.utf8).write(to: folder.appendingPathComponent("stops.geojson"))
    return Polyline.encode([
        Coordinate(longitude: -122.4783, latitude: 37.8199), Coordinate(longitude: -122.4740, latitude: 37.8080),
        Coordinate(longitude: -122.4650, latitude: 37.8050), Coordinate(longitude: -122.4560, latitude: 37.8030),
    ])
}

/// Whether this test process (and so the `declutter` built beside it) runs under AddressSanitizer or
/// ThreadSanitizer, whose runtimes define these entry points.
let isSanitized =
    dlsym(nil, "__asan_init") != nil
    || dlsym(nil, "__tsan_init") != nil
