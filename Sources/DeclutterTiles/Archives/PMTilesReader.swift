import DeclutterDeflate
import Foundation
import Synchronization

/// A PMTiles v3 archive read from its file (spec §3–§5): the header, root directory and metadata when it is opened,
/// leaf directories the first time a tile needs them, kept from then on (up to ``leafCacheLimit``).
final class PMTilesReader: Sendable {
    let header: PMTilesHeader
    /// The metadata, inflated: a JSON object.
    let metadata: Data
    private let file: ReadOnlyFile
    private let root: PMTilesDirectory
    private let leaves = Mutex<[UInt64: PMTilesDirectory]>([:])

    /// Leaf directories kept: a whole-world z14 archive has a few thousand; beyond this many the cache starts again.
    static let leafCacheLimit = 4096
    /// The most bytes a directory or the metadata may take, compressed or not: spec §3 keeps the root within 16 KiB,
    /// and tippecanoe's leaves are a few hundred KiB.
    static let directoryLimit = 64 << 20
    /// Directories nested deeper than this are damage (spec §4.2: leaves point to tiles, or to leaves).
    static let maximumDepth = 4

    /// Reads the header, root directory and metadata.
    ///
    /// - Throws: ``TilesetArchiveError`` for what is not a PMTiles v3 archive of vector tiles, or is damaged.
    init(file: ReadOnlyFile) throws {
        self.file = file
        header = try PMTilesHeader(decoding: try file.read(offset: 0, length: UInt64(min(file.size, 127))))
        guard [PMTilesHeader.none, PMTilesHeader.gzip].contains(header.internalCompression) else {
            throw TilesetArchiveError(
                "\(file.path): directories compressed with method \(header.internalCompression) (spec §3.3); expected 1 (none) or 2 (gzip)"
            )
        }
        guard [PMTilesHeader.none, PMTilesHeader.gzip].contains(header.tileCompression) else {
            throw TilesetArchiveError(
                "\(file.path): tiles compressed with method \(header.tileCompression) (spec §3.3); expected 1 (none) or 2 (gzip)"
            )
        }
        guard header.tileType == PMTilesHeader.mvt else {
            throw TilesetArchiveError(
                "\(file.path): tiles of type \(header.tileType) (spec §3.2); expected 1, Mapbox vector tiles")
        }
        let internalCompression = header.internalCompression
        func section(_ offset: UInt64, _ length: UInt64, _ what: String) throws -> Data {
            guard length <= UInt64(Self.directoryLimit) else {
                throw TilesetArchiveError("\(file.path): its \(what) claims \(length) bytes")
            }
            let bytes = try file.read(offset: offset, length: length)
            return internalCompression == PMTilesHeader.gzip
                ? try Self.inflate(bytes, file.path, what) : bytes
        }
        root = try PMTilesDirectory(decoding: section(header.rootOffset, header.rootLength, "root directory"))
        metadata =
            header.metadataLength == 0
            ? Data("{}".utf8) : try section(header.metadataOffset, header.metadataLength, "metadata")
    }

    /// The stored bytes of tile `z`/`x`/`y` (compressed as ``PMTilesHeader/tileCompression`` says), or nil when the
    /// archive has none.
    ///
    /// - Throws: ``TilesetArchiveError`` when a directory the tile needs is damaged.
    func tile(z: Int, x: Int, y: Int) throws -> Data? {
        guard (0...31).contains(z), (0..<(1 << z)).contains(x), (0..<(1 << z)).contains(y) else { return nil }
        let id = PMTilesTileID.id(z: z, x: x, y: y)
        var directory = root
        for _ in 0..<Self.maximumDepth {
            guard let entry = directory.entry(holding: id) else { return nil }
            if entry.runLength > 0 {
                return try file.read(offset: header.dataOffset &+ entry.offset, length: UInt64(entry.length))
            }
            directory = try leaf(at: entry)
        }
        throw TilesetArchiveError("\(file.path): leaf directories nested deeper than \(Self.maximumDepth)")
    }

    /// The leaf directory an entry points to, from the cache or the file.
    private func leaf(at entry: PMTilesDirectory.Entry) throws -> PMTilesDirectory {
        if let cached = leaves.withLock({ $0[entry.offset] }) { return cached }
        guard entry.length <= UInt32(Self.directoryLimit) else {
            throw TilesetArchiveError("\(file.path): a leaf directory claims \(entry.length) bytes")
        }
        var bytes = try file.read(offset: header.leavesOffset &+ entry.offset, length: UInt64(entry.length))
        if header.internalCompression == PMTilesHeader.gzip {
            bytes = try Self.inflate(bytes, file.path, "leaf directory")
        }
        let directory = try PMTilesDirectory(decoding: bytes)
        leaves.withLock {
            if $0.count >= Self.leafCacheLimit { $0.removeAll(keepingCapacity: true) }
            $0[entry.offset] = directory
        }
        return directory
    }

    private static func inflate(_ bytes: Data, _ path: String, _ what: String) throws -> Data {
        do {
            return try Gzip.decompress(bytes, limit: directoryLimit)
        } catch {
            throw TilesetArchiveError("\(path): its \(what) does not inflate (\(error))")
        }
    }
}
