import DeclutterClustering
import DeclutterDeflate
import DeclutterStyle
import DeclutterSupport
import DeclutterTiles
import Foundation
import Testing

@Suite struct PMTilesWriterTests {
    /// 341 tiles in shuffled batches, 150 of them one shared "ocean" payload, read back by the test's own reader.
    @Test func smallArchiveReadsBack() throws {
        let folder = try TestFolder()
        let path = folder.file("clusters.pmtiles")
        let tiles = SyntheticTiles.small()
        let writer = try PMTilesWriter(path: path)
        let shuffled = SyntheticTiles.shuffled(tiles)
        for start in stride(from: 0, to: shuffled.count, by: 50) {
            try writer.add(Array(shuffled[start..<min(shuffled.count, start + 50)]))
        }
        // An empty tile is skipped, not written.
        try writer.add([EncodedTile(z: 5, x: 0, y: 0, data: Data())])
        try writer.finish(SyntheticTiles.metadata)
        #expect(writer.tileCount == 341)
        #expect(try folder.contents() == ["clusters.pmtiles"])

        var reader = try PMTilesReader(path: path)
        let header = reader.header
        let oceanCount = tiles.filter { $0.data == SyntheticTiles.ocean }.count
        #expect(oceanCount == 150)
        #expect(header.addressedTiles == 341)
        // Every distinct payload once, plus the ocean tile once.
        #expect(header.tileContents == UInt64(341 - oceanCount + 1))
        #expect(header.tileEntries < 341 && header.tileEntries >= header.tileContents)
        #expect(header.rootOffset == 127)
        #expect(header.metadataOffset == header.rootOffset + header.rootLength)
        #expect(header.leavesLength == 0)
        #expect(header.dataOffset == header.leavesOffset)
        #expect(header.dataOffset + header.dataLength == UInt64(reader.bytes.count))
        #expect(
            [header.clustered, header.internalCompression, header.tileCompression, header.tileType] == [1, 2, 2, 1])
        #expect([header.minZoom, header.maxZoom, header.centerZoom] == [0, 4, 3])
        #expect(
            [header.west, header.south, header.east, header.north] == [
                -1_225_000_000, 372_500_000, -1_217_500_000, 380_000_000,
            ])
        #expect([header.centerLongitude, header.centerLatitude] == [-1_221_250_000, 376_250_000])

        for tile in tiles {
            let stored = try #require(try reader.tile(z: tile.z, x: tile.x, y: tile.y), "tile \(tile.name) missing")
            #expect(stored.prefix(2) == Data([0x1f, 0x8b]))
            #expect(try Gzip.decompress(stored) == tile.data, "tile \(tile.name)")
        }
        #expect(try reader.tile(z: 5, x: 0, y: 0) == nil)

        // Clustered: tile data in id order, so the entries' offsets never go past the end of what came before,
        // and the first entry starts at 0.
        let entries = try reader.root()
        #expect(entries.first?.offset == 0)
        var end: UInt64 = 0
        for entry in entries {
            #expect(entry.offset <= end)
            end = max(end, entry.offset + UInt64(entry.length))
        }
        #expect(end == header.dataLength)

        let metadata = try reader.metadata()
        #expect(metadata["name"] as? String == "clusters")
        #expect(metadata["attribution"] as? String == "© Test")
        #expect(metadata["type"] as? String == "overlay")
        let layers = try #require(metadata["vector_layers"] as? [[String: Any]])
        #expect(layers.count == 1)
        #expect(layers.first?["id"] as? String == "clusters")
        #expect(
            layers.first?["fields"] as? [String: String] == [
                "count": "Number", "category": "String", "cluster": "Boolean",
            ])
        #expect(layers.first?["minzoom"] as? Int == 0 && layers.first?["maxzoom"] as? Int == 4)
    }

    /// Tiles given in id order, as `ClusterTileset` gives them, are not copied: the data stays where it was written,
    /// at 16 KiB, with the metadata after it; every tile, entry and content equals the shuffled archive's.
    @Test func tilesInOrderStayWhereTheyWereWritten() throws {
        let folder = try TestFolder()
        let tiles = SyntheticTiles.small()
        let sorted = tiles.sorted {
            PMTilesTileID.id(z: $0.z, x: $0.x, y: $0.y) < PMTilesTileID.id(z: $1.z, x: $1.x, y: $1.y)
        }
        let inOrder = try PMTilesWriter(path: folder.file("in-order.pmtiles"))
        for start in stride(from: 0, to: sorted.count, by: 50) {
            try inOrder.add(Array(sorted[start..<min(sorted.count, start + 50)]))
        }
        try inOrder.finish(SyntheticTiles.metadata)
        let shuffled = try PMTilesWriter(path: folder.file("shuffled.pmtiles"))
        try shuffled.add(SyntheticTiles.shuffled(tiles))
        try shuffled.finish(SyntheticTiles.metadata)
        #expect(try folder.contents() == ["in-order.pmtiles", "shuffled.pmtiles"])

        var reader = try PMTilesReader(path: folder.file("in-order.pmtiles"))
        let other = try PMTilesReader(path: folder.file("shuffled.pmtiles"))
        let header = reader.header
        #expect(header.rootOffset == 127 && header.rootOffset + header.rootLength <= 16_384)
        #expect(header.dataOffset == 16_384)
        #expect(header.metadataOffset == header.dataOffset + header.dataLength)
        #expect(header.leavesOffset == header.metadataOffset + header.metadataLength)
        #expect(header.leavesOffset + header.leavesLength == UInt64(reader.bytes.count))
        #expect(header.clustered == 1)
        #expect(
            [header.addressedTiles, header.tileEntries, header.tileContents, header.dataLength]
                == [
                    other.header.addressedTiles, other.header.tileEntries, other.header.tileContents,
                    other.header.dataLength,
                ])
        #expect(try reader.root() == other.root())
        #expect(
            reader.slice(header.metadataOffset, header.metadataLength)
                == other.slice(other.header.metadataOffset, other.header.metadataLength))
        for tile in tiles {
            let stored = try #require(try reader.tile(z: tile.z, x: tile.x, y: tile.y), "tile \(tile.name) missing")
            #expect(try Gzip.decompress(stored) == tile.data, "tile \(tile.name)")
        }
    }

    /// Identical tiles with consecutive ids become one entry with a run length: all 64 tiles of zoom 3 the same.
    @Test func runOfIdenticalTiles() throws {
        let folder = try TestFolder()
        let path = folder.file("ocean.pmtiles")
        let writer = try PMTilesWriter(path: path)
        try writer.add((0..<64).map { EncodedTile(z: 3, x: $0 % 8, y: $0 / 8, data: SyntheticTiles.ocean) })
        var metadata = SyntheticTiles.metadata
        metadata.minZoom = 3
        try writer.finish(metadata)
        var reader = try PMTilesReader(path: path)
        #expect(
            try reader.root() == [
                .init(tileID: 21, offset: 0, length: reader.header.dataLength.asUInt32, runLength: 64)
            ])
        #expect([reader.header.addressedTiles, reader.header.tileEntries, reader.header.tileContents] == [64, 1, 1])
        #expect(try Gzip.decompress(#require(try reader.tile(z: 3, x: 7, y: 7))) == SyntheticTiles.ocean)
    }

    /// 20,000 distinct tiles (all of zoom 7 and part of zoom 8) need leaf directories; each is found through one.
    @Test func leafDirectories() throws {
        let folder = try TestFolder()
        let path = folder.file("many.pmtiles")
        var tiles: [EncodedTile] = []
        for z in 7...8 {
            for x in 0..<(1 << z) {
                for y in 0..<(1 << z) where tiles.count < 20_000 {
                    tiles.append(EncodedTile(z: z, x: x, y: y, data: SyntheticTiles.payload(z: z, x: x, y: y)))
                }
            }
        }
        let writer = try PMTilesWriter(path: path)
        try writer.add(SyntheticTiles.shuffled(tiles))
        var metadata = SyntheticTiles.metadata
        (metadata.minZoom, metadata.maxZoom) = (7, 8)
        try writer.finish(metadata)

        var reader = try PMTilesReader(path: path)
        #expect(reader.header.leavesLength > 0)
        #expect(reader.header.rootLength <= 16_257)
        #expect(
            [reader.header.addressedTiles, reader.header.tileEntries, reader.header.tileContents] == [
                20_000, 20_000, 20_000,
            ])
        let root = try reader.root()
        // 20,000 entries in leaves of 4,096: five leaves.
        #expect(root.count == 5)
        #expect(root.allSatisfy { $0.runLength == 0 })
        for tile in tiles {
            let stored = try #require(try reader.tile(z: tile.z, x: tile.x, y: tile.y), "tile \(tile.name) missing")
            #expect(try Gzip.decompress(stored) == tile.data)
        }
        #expect(reader.leavesRead == 20_000)
    }

    /// A tile off the grid and a tile given twice are refused with the file and the tile named, and leave nothing.
    @Test func errorsLeaveNothingBehind() throws {
        let folder = try TestFolder()
        let path = folder.file("bad.pmtiles")
        let writer = try PMTilesWriter(path: path)
        try writer.add(SyntheticTiles.small())
        #expect(try folder.contents().count == 1)  // the hidden data file
        #expect(
            throws: OutputError(
                path: path, reason: "tile 2/4/0 is outside the tile grid (zoom 0…30, x and y below 2^zoom)")
        ) {
            try writer.add([EncodedTile(z: 2, x: 4, y: 0, data: Data([1]))])
        }
        #expect(try folder.contents() == [])

        let twice = try PMTilesWriter(path: path)
        try twice.add([EncodedTile(z: 1, x: 1, y: 0, data: Data([1])), EncodedTile(z: 1, x: 1, y: 0, data: Data([2]))])
        #expect(throws: OutputError(path: path, reason: "tile 1/1/0 was given twice")) {
            try twice.finish(SyntheticTiles.metadata)
        }
        #expect(try folder.contents() == [])

        let cancelled = try PMTilesWriter(path: path)
        try cancelled.add(SyntheticTiles.small())
        cancelled.cancel()
        #expect(try folder.contents() == [])
        #expect(throws: OutputError(path: path, reason: "the archive is already finished or cancelled")) {
            try cancelled.finish(SyntheticTiles.metadata)
        }
    }

    /// An existing archive is replaced whole by the new one.
    @Test func replacesExistingFile() throws {
        let folder = try TestFolder()
        let path = folder.file("old.pmtiles")
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        let writer = try PMTilesWriter(path: path)
        try writer.add([EncodedTile(z: 0, x: 0, y: 0, data: SyntheticTiles.ocean)])
        try writer.finish(SyntheticTiles.metadata)
        var reader = try PMTilesReader(path: path)
        #expect(try Gzip.decompress(#require(try reader.tile(z: 0, x: 0, y: 0))) == SyntheticTiles.ocean)
        #expect(try folder.contents() == ["old.pmtiles"])
    }
}

extension UInt64 {
    fileprivate var asUInt32: UInt32 { UInt32(truncatingIfNeeded: self) }
}
