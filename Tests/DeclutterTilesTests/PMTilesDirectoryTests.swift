import DeclutterStyle
import DeclutterTiles
import Foundation
import Testing

@Suite struct PMTilesDirectoryTests {
    /// Three entries worked by hand: tile 0 (100 bytes at 0), tiles 5 and 6 (300 bytes right after), and tile 200
    /// pointing back at tile 0's bytes (a deduplicated tile).
    @Test func threeEntries() throws {
        let directory = PMTilesDirectory([
            .init(tileID: 0, offset: 0, length: 100, runLength: 1),
            .init(tileID: 5, offset: 100, length: 300, runLength: 2),
            .init(tileID: 200, offset: 0, length: 100, runLength: 1),
        ])
        let expected: [UInt8] = [
            0x03,  // three entries
            0x00, 0x05, 0xC3, 0x01,  // id deltas 0, 5, 195 (195 = 0x43 | 1 << 7)
            0x01, 0x02, 0x01,  // run lengths
            0x64, 0xAC, 0x02, 0x64,  // lengths 100, 300 (0x2C | 2 << 7), 100
            0x01, 0x00, 0x01,  // offsets: 0 + 1; contiguous → 0; 0 + 1 again (not contiguous)
        ]
        #expect([UInt8](directory.encoded()) == expected)
        #expect(try PMTilesReader.decode(directory.encoded()) == directory.entries)
    }

    /// A leaf pointer (run length 0) and large values take several varint bytes.
    @Test func leafPointerAndLongVarints() throws {
        let directory = PMTilesDirectory([.init(tileID: 1 << 40, offset: 70_000, length: 16_384, runLength: 0)])
        let bytes = [UInt8](directory.encoded())
        // 2^40: five zero groups of seven bits, then 2^5.
        #expect(bytes == [0x01, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20, 0x00, 0x80, 0x80, 0x01, 0xF1, 0xA2, 0x04])
        #expect(try PMTilesReader.decode(directory.encoded()) == directory.entries)
    }

    /// The library's own decoder, which `serve --tileset` reads archives with, reads the hand-worked bytes back, finds
    /// the entry holding a tile id (in a run, in a leaf's range, or none), and refuses damaged directories.
    @Test func decodingFindsEntriesAndRefusesDamage() throws {
        let bytes: [UInt8] = [0x03, 0x00, 0x05, 0xC3, 0x01, 0x01, 0x02, 0x01, 0x64, 0xAC, 0x02, 0x64, 0x01, 0x00, 0x01]
        let directory = try PMTilesDirectory(decoding: Data(bytes))
        #expect(directory.entries.map(\.tileID) == [0, 5, 200])
        #expect(directory.entries.map(\.offset) == [0, 100, 0])
        #expect(directory.entry(holding: 6)?.tileID == 5)
        #expect(directory.entry(holding: 7) == nil)
        #expect(directory.entry(holding: 300) == nil)
        let leaf = PMTilesDirectory([.init(tileID: 1 << 40, offset: 70_000, length: 16_384, runLength: 0)])
        #expect(try PMTilesDirectory(decoding: leaf.encoded()).entry(holding: (1 << 40) + 99)?.offset == 70_000)
        // A count larger than the bytes could hold, and a varint cut short.
        #expect(throws: TilesetArchiveError.self) { try PMTilesDirectory(decoding: Data([0xFF, 0x7F, 0x00])) }
        #expect(throws: TilesetArchiveError.self) { try PMTilesDirectory(decoding: Data(bytes.dropLast())) }
    }
}
