import CLibDeflate
import DeclutterClustering
import DeclutterDeflate
import DeclutterStyle
import DeclutterTiles
import Foundation
import Testing

/// The fixed-code deflater on the tiles it was made for.
@Suite struct TileCompressionTests {
    let deflater = FixedCodeDeflater()

    /// Real tiles (uniform points' zooms 0…7) come back whole through zlib, and libdeflate's level 6 makes them at
    /// most 1 % smaller (0.15 % here: 1,801,760 bytes against 1,799,119 for 15,343 tiles).
    @Test func realTilesRoundTripAndStaySmall() throws {
        var generator = SyntheticTiles.SplitMix(seed: 9)
        let points = (0..<20_000).map { _ in
            ClusterPoint(
                longitude: Double.random(in: -180..<180, using: &generator),
                latitude: Double.random(in: -85..<85, using: &generator))
        }
        let style = try MarkerStyle.load(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Styles/default.json"))
        let tileset = try ClusterTileset(index: ClusterIndex(points: points), style: style, zooms: 0...7)
        let compressor = try #require(libdeflate_alloc_compressor(6))
        defer { libdeflate_free_compressor(compressor) }
        var encoded: [EncodedTile] = []
        tileset.encode { encoded += $0 }
        var ours = 0, theirs = 0, tiles = 0
        var buffer = [UInt8](repeating: 0, count: 4_096)
        for tile in encoded where tile.data.count <= FixedCodeDeflater.maximumInput {
            let member = tile.data.withUnsafeBytes { deflater.gzip($0) }
            #expect(try Gzip.decompress(member) == tile.data)
            theirs += tile.data.withUnsafeBytes { input in
                libdeflate_gzip_compress(compressor, input.baseAddress, input.count, &buffer, buffer.count)
            }
            ours += member.count
            tiles += 1
        }
        #expect(tiles > 10_000)
        #expect(Double(ours) <= Double(theirs) * 1.01, "ours \(ours) bytes, libdeflate's \(theirs)")
    }
}
