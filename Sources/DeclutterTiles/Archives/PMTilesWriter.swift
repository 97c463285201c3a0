import DeclutterClustering
import DeclutterDeflate
import DeclutterMapContent
import DeclutterStyle
import DeclutterSupport
import Foundation

/// Writes a PMTiles v3 archive: gzip-compressed MVT tiles clustered in tile id order, identical tiles stored once,
/// gzip-compressed directories with leaves when the root would pass 16 KiB.
///
/// Each tile's compressed bytes are appended to the archive's temporary as they come, after 16 KiB kept for the
/// header and root directory, and only 32 bytes or so per tile stay in memory (its id, which content it is, and per
/// distinct content its place, length and hash). Tiles that come in id order, as ``ClusterTileset`` hands them,
/// are then already clustered: ``finish(_:)`` appends the metadata and leaf directories after them, writes the
/// header and root into the room kept, and renames the temporary onto the output (the spec lets every section but
/// the header lie anywhere, the root within the first 16 KiB). Tiles in any other order are copied by ``finish(_:)``
/// into a second temporary in id order, sections in the usual order. Both temporaries sit beside the output.
public final class PMTilesWriter: TilesetWriter {
    public let path: String
    public private(set) var tileCount = 0

    /// The largest root directory, compressed: 16,384 bytes less the header (spec §4).
    static let rootLimit = 16_384 - headerSize
    static let headerSize = 127

    /// A tile: its id and the index of its bytes among the distinct contents.
    private struct Tile {
        var id: UInt64
        var content: UInt32
    }

    private var tiles: [Tile] = []
    /// Per distinct content: where its gzip bytes are in the data file, and how many.
    private var contentOffsets: [UInt64] = []
    private var contentLengths: [UInt32] = []
    /// The first content with each hash of the compressed bytes; a later equal tile reuses it.
    private var contentByHash: [Int: UInt32] = [:]
    private let gzip: Gzip
    /// The tiles' compressors, one per core.
    private let compressors: GzipBatch
    private let dataTemporary: TemporaryOutput
    private let data: BufferedFile
    /// Whether every tile so far came after the one before in id order, so that the data needs no copy.
    private var isInOrder = true
    private var isDone = false

    /// Where the tile data starts in the temporary: after room for the header and the largest root.
    static let dataStart = UInt64(16_384)

    /// Starts an archive at `path`; nothing appears there until ``finish(_:)``.
    ///
    /// - Parameter compressionLevel: gzip's level for tiles, 0…9 (tippecanoe's 6 by default).
    /// - Throws: ``OutputError`` when `path` is a folder or its folder cannot be written.
    public init(path: String, compressionLevel: Int32 = 6) throws {
        self.path = path
        try Gzip.checkArchive(at: path, level: compressionLevel)
        gzip = try Gzip(level: compressionLevel)
        compressors = try GzipBatch(level: compressionLevel)
        dataTemporary = try TemporaryOutput(for: path)
        data = try BufferedFile(creating: dataTemporary.path, for: path)
        try data.write(Data(count: Int(Self.dataStart)))
    }

    public func add(_ batch: [EncodedTile]) throws {
        guard !isDone else { throw OutputError(path: path, reason: "the archive is already finished or cancelled") }
        do {
            for tile in batch where !tile.data.isEmpty { try tile.validate(in: path) }
            for (tile, compressed) in zip(batch, try compressors.compress(batch.map(\.data))) where !tile.data.isEmpty {
                let content = try store(compressed)
                let id = PMTilesTileID.id(z: tile.z, x: tile.x, y: tile.y)
                if let last = tiles.last, last.id >= id { isInOrder = false }
                tiles.append(Tile(id: id, content: content))
                tileCount += 1
            }
        } catch {
            cancel()
            throw (error as? OutputError) ?? OutputError(path: path, reason: "\(error)")
        }
    }

    /// The index of `compressed` among the contents, appending it to the data file unless equal bytes are there.
    private func store(_ compressed: Data) throws -> UInt32 {
        var hasher = Hasher()
        compressed.withUnsafeBytes { hasher.combine(bytes: $0) }
        let hash = hasher.finalize()
        if let known = contentByHash[hash], contentLengths[Int(known)] == UInt32(compressed.count),
            try data.read(at: contentOffsets[Int(known)], count: compressed.count) == compressed
        {
            return known
        }
        guard contentOffsets.count < Int(UInt32.max) else {
            throw OutputError(path: path, reason: "more than 2^32 distinct tiles")
        }
        let index = UInt32(contentOffsets.count)
        contentOffsets.append(data.size)
        contentLengths.append(UInt32(compressed.count))
        // A hash shared by different bytes keeps its first content; the second is then stored twice, never mixed up.
        if contentByHash[hash] == nil { contentByHash[hash] = index }
        try data.write(compressed)
        return index
    }

    public func finish(_ metadata: TilesetMetadata, companions: [(name: String, data: Data)]) throws {
        guard !isDone else { throw OutputError(path: path, reason: "the archive is already finished or cancelled") }
        defer { cancel() }
        try metadata.validate(in: path)
        guard !tiles.isEmpty else {
            throw OutputError(path: path, reason: "there are no tiles to write (every tile was empty)")
        }
        contentByHash = [:]

        if !isInOrder { tiles.sort { $0.id < $1.id } }
        // Clustered: contents are laid out in the order their first tile comes, and an entry grows its run while the
        // next id holds the same content. Tiles that came in order were stored in that order already.
        var placed = [UInt64](repeating: .max, count: contentOffsets.count)
        var order: [UInt32] = []
        var entries: [PMTilesDirectory.Entry] = []
        // Reserved whole: growing by doubling would hold two copies at the moment memory peaks.
        if !isInOrder { order.reserveCapacity(contentOffsets.count) }
        entries.reserveCapacity(tiles.count)
        var dataLength: UInt64 = 0
        for (index, tile) in tiles.enumerated() {
            if index > 0, tiles[index - 1].id == tile.id {
                let (z, x, y) = PMTilesTileID.tile(tile.id)
                throw OutputError(path: path, reason: "tile \(z)/\(x)/\(y) was given twice")
            }
            let content = Int(tile.content)
            if placed[content] == .max {
                placed[content] = isInOrder ? contentOffsets[content] - Self.dataStart : dataLength
                dataLength += UInt64(contentLengths[content])
                if !isInOrder { order.append(tile.content) }
            }
            if let last = entries.last, last.offset == placed[content], last.tileID + UInt64(last.runLength) == tile.id
            {
                entries[entries.count - 1].runLength += 1
            } else {
                entries.append(
                    .init(tileID: tile.id, offset: placed[content], length: contentLengths[content], runLength: 1))
            }
        }
        var header = PMTilesHeader()
        header.addressedTiles = UInt64(tiles.count)
        header.tileEntries = UInt64(entries.count)
        header.tileContents = UInt64(contentOffsets.count)
        header.minZoom = UInt8(metadata.minZoom)
        header.maxZoom = UInt8(metadata.maxZoom)
        header.bounds = metadata.bounds
        header.center = metadata.center
        tiles = []
        placed = []

        let (root, leaves) = try directories(entries)
        entries = []
        let metadataBytes = try gzip.compress(Self.metadataJSON(metadata))
        header.rootOffset = UInt64(Self.headerSize)
        header.rootLength = UInt64(root.count)
        header.dataLength = dataLength
        // In order: header, root, the room left, the data as it came, then the metadata and leaves. Copied: header,
        // root, metadata, leaves, then the data.
        header.metadataOffset = isInOrder ? Self.dataStart + dataLength : header.rootOffset + header.rootLength
        header.metadataLength = UInt64(metadataBytes.count)
        header.leavesOffset = header.metadataOffset + header.metadataLength
        header.leavesLength = UInt64(leaves.count)
        header.dataOffset = isInOrder ? Self.dataStart : header.leavesOffset + header.leavesLength
        let besides = try CompanionFiles(companions, in: URL(fileURLWithPath: path).deletingLastPathComponent().path)
        if isInOrder {
            try data.write(metadataBytes)
            try data.write(leaves)
            try data.write(header.encoded() + root, at: 0)
            try data.close()
            try dataTemporary.commit()
        } else {
            let archive = try TemporaryOutput(for: path)
            do {
                let output = try BufferedFile(creating: archive.path, for: path)
                try output.write(header.encoded())
                try output.write(root)
                try output.write(metadataBytes)
                try output.write(leaves)
                for content in order {
                    let index = Int(content)
                    try output.write(data.read(at: contentOffsets[index], count: Int(contentLengths[index])))
                }
                try output.close()
                try archive.commit()
            } catch {
                archive.discard()
                throw error
            }
        }
        try besides.commit()
    }

    public func cancel() {
        isDone = true
        dataTemporary.discard()
        tiles = []
        contentOffsets = []
        contentLengths = []
        contentByHash = [:]
    }

    /// The compressed root directory and the leaf directories section. The root holds every entry when that fits in
    /// ``rootLimit``; else leaves of 4,096 entries, grown by a fifth until the root of leaf pointers fits (as
    /// go-pmtiles does).
    private func directories(_ entries: [PMTilesDirectory.Entry]) throws -> (root: Data, leaves: Data) {
        if entries.count < 16_384 {
            let root = try gzip.compress(PMTilesDirectory.encode(entries[...]))
            if root.count <= Self.rootLimit { return (root, Data()) }
        }
        var leafSize = 4_096
        while true {
            var leaves = Data()
            var pointers: [PMTilesDirectory.Entry] = []
            for start in stride(from: 0, to: entries.count, by: leafSize) {
                let slice = entries[start..<min(entries.count, start + leafSize)]
                let leaf = try gzip.compress(PMTilesDirectory.encode(slice))
                pointers.append(
                    .init(
                        tileID: slice[start].tileID, offset: UInt64(leaves.count), length: UInt32(leaf.count),
                        runLength: 0))
                leaves.append(leaf)
            }
            let root = try gzip.compress(PMTilesDirectory.encode(pointers[...]))
            if root.count <= Self.rootLimit { return (root, leaves) }
            leafSize += leafSize / 5
        }
    }

    /// The archive's JSON metadata: name, description, attribution, type and `vector_layers`.
    static func metadataJSON(_ metadata: TilesetMetadata) -> Data {
        struct Metadata: Encodable {
            var name: String
            var description: String
            var attribution: String?
            var type = "overlay"
            // swift-format-ignore: AlwaysUseLowerCamelCase
            // The key PMTiles' metadata holds.
            var vector_layers: [TilesetMetadata.VectorLayer]
        }
        return TilesetMetadata.json(
            Metadata(
                name: metadata.name, description: metadata.description, attribution: metadata.attribution,
                vector_layers: metadata.vectorLayers))
    }
}
