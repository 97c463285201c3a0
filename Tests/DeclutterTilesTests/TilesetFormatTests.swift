import DeclutterCore
@testable import DeclutterTiles
import Foundation
import Testing

@Suite struct TilesetFormatTests {
    /// The extension picks the format; anything else is a new folder.
    @Test func pickedFromPath() throws {
        let folder = try TestFolder()
        #expect(try TilesetFormat(path: folder.file("a.mbtiles")) == .mbtiles)
        #expect(try TilesetFormat(path: folder.file("a.PMTiles")) == .pmtiles)
        #expect(try TilesetFormat(path: folder.file("tiles")) == .folder)
        #expect(try TilesetFormat.writer(for: folder.file("b.pmtiles")) is PMTilesWriter)
        #expect(try TilesetFormat.writer(for: folder.file("b.mbtiles")) is MBTilesWriter)
        #expect(try TilesetFormat.writer(for: folder.file("b")) is FolderTilesetWriter)
    }

    /// An existing file of another kind is refused rather than replaced by a folder.
    @Test func refusesOtherExistingFile() throws {
        let folder = try TestFolder()
        let path = folder.file("notes.txt")
        try Data("keep".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: OutputError(path: path, reason: "is a file; tiles go to a .mbtiles or .pmtiles file, or to a new folder")) {
            _ = try TilesetFormat(path: path)
        }
        #expect(FileManager.default.contents(atPath: path) == Data("keep".utf8))
    }

    /// A name with another file's extension asks for a file: `tiles.zip` was written as a folder named `tiles.zip`.
    @Test func refusesAnotherFilesExtension() throws {
        let folder = try TestFolder()
        for name in ["tiles.zip", "tiles.JSON", "clusters.mvt"] {
            let path = folder.file(name)
            let pathExtension = URL(fileURLWithPath: name).pathExtension.lowercased()
            #expect(throws: OutputError(path: path, reason: "\".\(pathExtension)\" is not a tileset format; tiles go to a .mbtiles or .pmtiles file, or to a new folder")) {
                _ = try TilesetFormat.writer(for: path)
            }
            #expect(!FileManager.default.fileExists(atPath: path))
        }
        #expect(try TilesetFormat(path: folder.file("tiles.v2")) == .folder)
    }

    /// Gzip output starts with the gzip magic and deflate's method byte and inflates back, for a small tile (the
    /// smallest window) and a large one (a larger window) alike; level 0 stores.
    @Test func gzipRoundTrip() throws {
        let data = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0 % 251) })
        let compressed = try Gzip().compress(data)
        #expect(compressed.prefix(4) == Data([0x1f, 0x8b, 0x08, 0x00]))
        #expect(compressed.count < 1_000)
        #expect(try Gzip.decompress(compressed) == data)
        let gzip = try Gzip()
        for size in [0, 1, 200, 250, 5_000, 40_000, 100_000] {
            let input = data.prefix(size) + Data(repeating: 7, count: max(0, size - data.count))
            #expect(try Gzip.decompress(gzip.compress(input)) == input, "\(size) bytes")
        }
        let stored = try Gzip(level: 0).compress(data)
        #expect(stored.count > data.count)
        #expect(try Gzip.decompress(stored) == data)
        #expect(throws: GzipError("the compression level 12 is not within 0…9")) { _ = try Gzip(level: 12) }
        #expect(throws: GzipError("the gzip data ends early")) { _ = try Gzip.decompress(compressed.prefix(20)) }
    }

    /// A batch compressed on every core gives each tile the bytes one compressor gives it, in order, empty tiles empty.
    @Test func aBatchCompressesAsOneCompressorDoes() throws {
        let tiles = (0..<1_001).map { index in
            EncodedTile(z: 10, x: index, y: 0, data: index % 97 == 0 ? Data() : Data((0..<(index % 300)).map { UInt8(truncatingIfNeeded: $0 * index) }))
        }
        let batch = try GzipBatch(level: 6).compress(tiles)
        let one = try Gzip(level: 6)
        #expect(batch.count == 1_001)
        #expect(try batch == tiles.map { $0.data.isEmpty ? Data() : try one.compress($0.data) })
        #expect(try GzipBatch(level: 6).compress([]) == [])
    }
}
