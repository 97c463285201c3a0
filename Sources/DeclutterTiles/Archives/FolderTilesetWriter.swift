import DeclutterClustering
import DeclutterSupport
import Foundation

/// Writes a folder of `{z}/{x}/{y}.pbf` tiles with `tiles.json` (TileJSON 3.0.0) beside them, for any static
/// file server.
///
/// The tiles are **not** compressed: a static server sends a `.pbf` without `Content-Encoding: gzip`, and MapLibre
/// would then try to parse gzip bytes as MVT. A server that compresses on the fly (nginx `gzip_types
/// application/x-protobuf`) still can. `tiles.json` names the tiles by the absolute template `BASE{z}/{x}/{y}.pbf`
/// when the folder's address is given (MapLibre GL JS resolves no relative template, neither against the TileJSON's
/// address nor the page's), else by the relative `{z}/{x}/{y}.pbf`, for readers that resolve it against the address
/// of `tiles.json` itself.
///
/// The folder is built under a hidden temporary name beside the output and renamed into place by ``finish(_:)``;
/// an existing output is refused rather than merged into.
public final class FolderTilesetWriter: TilesetWriter {
    public let path: String
    public private(set) var tileCount = 0

    /// The template `tiles.json` lists, relative to itself.
    public static let tileTemplate = "{z}/{x}/{y}.pbf"

    /// The folder's address with a trailing `/`, which `tiles.json`'s template starts with; nil for a relative one.
    public let baseURL: String?

    private let temporary: TemporaryOutput
    /// The `z` and `z/x` folders made so far, so each is made once.
    private var folders: Set<Int> = []
    private var zoomFolders: Set<Int> = []
    private var isDone = false

    /// Starts a folder at `path`, which must not exist yet; nothing appears there until ``finish(_:)``.
    ///
    /// - Parameter baseURL: Where the folder will be served from (`https://example.com/tiles/`); nil leaves
    ///   `tiles.json`'s template relative.
    /// - Throws: ``OutputError`` when something is already at `path` or its parent folder cannot be written.
    public init(path: String, baseURL: String? = nil) throws {
        self.path = path
        self.baseURL = baseURL.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
        if let existing = FileSystem.item(atPath: path) {
            throw OutputError(
                path: path,
                reason: existing == .file
                    ? "is a file, not a folder" : "the folder already exists; remove it or name a new one")
        }
        let trimmed = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        temporary = try TemporaryOutput(for: trimmed)
        guard mkdir(temporary.path, 0o755) == 0 else {
            let code = errno
            temporary.discard()
            throw TemporaryOutput.error(path, code, doing: "creating the folder")
        }
    }

    deinit { cancel() }

    public func add(_ tiles: [EncodedTile]) throws {
        guard !isDone else { throw OutputError(path: path, reason: "the folder is already finished or cancelled") }
        do {
            for tile in tiles where !tile.data.isEmpty {
                try tile.validate(in: path)
                try makeFolders(for: tile)
                try write(tile)
                tileCount += 1
            }
        } catch {
            cancel()
            throw error
        }
    }

    /// Makes `z` and `z/x` in the temporary folder unless made before.
    private func makeFolders(for tile: EncodedTile) throws {
        if zoomFolders.insert(tile.z).inserted {
            try makeFolder("\(tile.z)")
        }
        // z ≤ 30 and x < 2^30: one key per column of every zoom.
        if folders.insert(tile.z << 32 | tile.x).inserted {
            try makeFolder("\(tile.z)/\(tile.x)")
        }
    }

    private func makeFolder(_ relative: String) throws {
        guard mkdir("\(temporary.path)/\(relative)", 0o755) == 0 || errno == EEXIST else {
            throw TemporaryOutput.error(path, errno, doing: "creating \(relative)")
        }
    }

    /// Writes one tile file; `O_EXCL` makes a tile given twice an error instead of a silent replacement.
    private func write(_ tile: EncodedTile) throws {
        let file = "\(temporary.path)/\(tile.z)/\(tile.x)/\(tile.y).pbf"
        let descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            if errno == EEXIST { throw OutputError(path: path, reason: "tile \(tile.name) was given twice") }
            throw TemporaryOutput.error(path, errno, doing: "creating \(tile.name).pbf")
        }
        defer { close(descriptor) }
        try tile.data.withUnsafeBytes { bytes in
            var done = 0
            while done < bytes.count {
                let written = Foundation.write(descriptor, bytes.baseAddress! + done, bytes.count - done)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else {
                    throw TemporaryOutput.error(path, written < 0 ? errno : ENOSPC, doing: "writing \(tile.name).pbf")
                }
                done += written
            }
        }
    }

    public func finish(_ metadata: TilesetMetadata, companions: [(name: String, data: Data)]) throws {
        guard !isDone else { throw OutputError(path: path, reason: "the folder is already finished or cancelled") }
        do {
            try metadata.validate(in: path)
            let json = metadata.tileJSON(tiles: [(baseURL ?? "") + Self.tileTemplate])
            for file in [(name: "tiles.json", data: json)] + companions {
                if file.name.contains("/") {
                    let folder = URL(fileURLWithPath: "\(temporary.path)/\(file.name)").deletingLastPathComponent()
                    do {
                        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    } catch {
                        throw OutputError(
                            path: path,
                            reason: "cannot make \(folder.lastPathComponent) in it (\(FileSystem.reason(error)))")
                    }
                }
                guard FileManager.default.createFile(atPath: "\(temporary.path)/\(file.name)", contents: file.data)
                else {
                    throw TemporaryOutput.error(path, errno, doing: "writing \(file.name)")
                }
            }
            // rename(2) would replace an empty folder made at the output meanwhile; refuse it as at the start.
            if FileSystem.item(atPath: path) != nil {
                throw OutputError(
                    path: path, reason: "appeared while the tiles were written; remove it or name a new one")
            }
            try temporary.commit()
            isDone = true
        } catch {
            cancel()
            throw error
        }
    }

    public func cancel() {
        isDone = true
        temporary.discard()
    }

    /// TileJSON 3.0.0, for the folder and for ``TilesetMetadata/tileJSON(tiles:)``.
    struct TileJSON: Encodable {
        var tilejson = "3.0.0"
        var name: String
        var description: String
        var attribution: String?
        var scheme = "xyz"
        var tiles: [String]
        // swift-format-ignore: AlwaysUseLowerCamelCase
        // The key TileJSON holds.
        var vector_layers: [TilesetMetadata.VectorLayer]
        var minzoom: Int
        var maxzoom: Int
        var bounds: [Double]
        var center: [Double]
    }

    static func tileJSON(_ metadata: TilesetMetadata, tiles: [String]) -> TileJSON {
        let bounds = metadata.bounds, center = metadata.center
        return TileJSON(
            name: metadata.name, description: metadata.description, attribution: metadata.attribution, tiles: tiles,
            vector_layers: metadata.vectorLayers, minzoom: metadata.minZoom, maxzoom: metadata.maxZoom,
            bounds: [bounds.west, bounds.south, bounds.east, bounds.north],
            center: [center.longitude, center.latitude, Double(center.zoom)])
    }
}
