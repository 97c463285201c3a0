import Foundation
import Testing

@testable import DeclutterDeflate

/// gzip members as archives store vector tiles, one at a time and a batch on every core.
@Suite struct GzipTests {
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

    /// A batch compressed on every core gives each payload the bytes one compressor gives it, in order, empty ones
    /// empty.
    @Test func aBatchCompressesAsOneCompressorDoes() throws {
        let tiles = (0..<1_001).map { index in
            index % 97 == 0 ? Data() : Data((0..<(index % 300)).map { UInt8(truncatingIfNeeded: $0 * index) })
        }
        let batch = try GzipBatch(level: 6).compress(tiles)
        let one = try Gzip(level: 6)
        #expect(batch.count == 1_001)
        #expect(try batch == tiles.map { $0.isEmpty ? Data() : try one.compress($0) })
        #expect(try GzipBatch(level: 6).compress([]) == [])
    }
}
