import DeclutterClustering
import DeclutterMapContent
import Foundation
import Testing

@testable import DeclutterTiles

@Suite struct VectorTileEncoderTests {
    /// One feature worked out by hand from vector_tile.proto: id 1, `cluster: true`, at (25, 17).
    @Test func oneFeatureTileByteForByte() {
        var encoder = VectorTileEncoder(layerName: "points", extent: 4096)
        encoder.addPoint(x: 25, y: 17, id: 1, properties: [("cluster", .bool(true))])
        let expected: [UInt8] = [
            0x1A, 0x29,  // Tile.layers (3), 41 bytes
            0x0A, 0x06, 0x70, 0x6F, 0x69, 0x6E, 0x74, 0x73,  // Layer.name (1) "points"
            0x12, 0x0D,  // Layer.features (2), 13 bytes
            0x08, 0x01,  //   Feature.id (1) = 1
            0x12, 0x02, 0x00, 0x00,  //   Feature.tags (2), packed: key 0, value 0
            0x18, 0x01,  //   Feature.type (3) = POINT
            0x22, 0x03, 0x09, 0x32, 0x22,  //   Feature.geometry (4): MoveTo(1), zigzag 25 → 50, 17 → 34
            0x1A, 0x07, 0x63, 0x6C, 0x75, 0x73, 0x74, 0x65, 0x72,  // Layer.keys (3) "cluster"
            0x22, 0x02, 0x38, 0x01,  // Layer.values (4): Value.bool_value (7) = true
            0x28, 0x80, 0x20,  // Layer.extent (5) = 4096
            0x78, 0x02,  // Layer.version (15) = 2
        ]
        #expect(Array(encoder.finish()) == expected)
        // The encoder starts again empty: a tile without features is a named layer alone.
        #expect(
            Array(encoder.finish()) == [
                0x1A, 0x0D, 0x0A, 0x06, 0x70, 0x6F, 0x69, 0x6E, 0x74, 0x73, 0x28, 0x80, 0x20, 0x78, 0x02,
            ])
    }

    @Test func keysAndValuesAreWrittenOnce() throws {
        var vocabulary = VectorTileVocabulary()
        vocabulary.key("kind")
        vocabulary.string("town")
        var encoder = VectorTileEncoder(layerName: "places", extent: 512, vocabulary: vocabulary)
        encoder.addPoint(
            x: 1, y: 2, properties: [("kind", .string("town")), ("size", .uint(3)), ("big", .bool(false))])
        encoder.addPoint(
            x: 3, y: 4, properties: [("size", .uint(3)), ("kind", .string("city")), ("big", .bool(false))])
        // Through the vocabulary's numbers and by name: still one key and one value.
        encoder.beginPoint(x: 5, y: 6, id: nil)
        encoder.add(key: 0, string: 0)
        encoder.add("kind", .string("town"))
        encoder.add("size", .double(3.5))
        encoder.add("size", .sint(-3))
        encoder.endPoint()
        let layer = try #require(try TileDecoder.decode(encoder.finish()).first)
        #expect(layer.name == "places")
        #expect(layer.extent == 512)
        #expect(layer.version == 2)
        #expect(layer.keys == ["kind", "size", "big"])
        #expect(layer.values == [.string("town"), .uint(3), .bool(false), .string("city"), .double(3.5), .sint(-3)])
        #expect(layer.features.map(\.tags) == [[0, 0, 1, 1, 2, 2], [1, 1, 0, 3, 2, 2], [0, 0, 0, 0, 1, 4, 1, 5]])
        #expect(layer.features.map(\.id) == [nil, nil, nil])
        #expect(layer.features.map(\.type) == [1, 1, 1])
    }

    @Test func negativeAndLargeCoordinatesInTheBuffer() throws {
        var encoder = VectorTileEncoder(layerName: "points")
        let positions: [(Int32, Int32)] = [
            (-64, -64), (4160, -1), (0, 4095), (-1_048_576, 1_048_576), (Int32.min, Int32.max),
        ]
        for (index, position) in positions.enumerated() {
            encoder.addPoint(x: position.0, y: position.1, id: UInt64(index) << 40)
        }
        let data = encoder.finish()
        let layer = try #require(try TileDecoder.decode(data).first)
        #expect(
            layer.features.compactMap { layer.point($0) }.map { [$0.x, $0.y] }
                == positions.map { [Int64($0.0), Int64($0.1)] })
        #expect(layer.features.map(\.id) == (0..<5).map { UInt64($0) << 40 })
        // -64 → zigzag 127, one byte; 4160 → 8320, two bytes (0x80 0x41).
        #expect(layer.features[0].geometry == [9, 127, 127])
        #expect(Array(data).contains(subsequence: [0x22, 0x04, 0x09, 0x80, 0x41, 0x01]))
    }

    @Test func numbersTakeTheSmallestExactField() {
        #expect(VectorTileValue(number: 3) == .uint(3))
        #expect(VectorTileValue(number: 0) == .uint(0))
        #expect(VectorTileValue(number: -0.0) == .uint(0))
        #expect(VectorTileValue(number: -7) == .sint(-7))
        #expect(VectorTileValue(number: 2.5) == .double(2.5))
        #expect(VectorTileValue(number: 1e300) == .double(1e300))
        #expect(VectorTileValue(number: 9_007_199_254_740_992) == .uint(9_007_199_254_740_992))
        #expect(VectorTileValue(json: .null) == nil)
        #expect(VectorTileValue(json: .array([.number(1), .string("a")])) == .string(#"[1,"a"]"#))
        #expect(VectorTileValue(json: .bool(true)) == .bool(true))
    }

    @Test func everyValueTypeReadsBack() throws {
        var encoder = VectorTileEncoder(layerName: "t")
        let values: [VectorTileValue] = [
            .string("ü"), .float(1.5), .double(-2.25), .int(-5), .uint(UInt64.max), .sint(Int64.min), .bool(true),
        ]
        encoder.addPoint(x: 0, y: 0, properties: values.enumerated().map { ("k\($0.offset)", $0.element) })
        let layer = try #require(try TileDecoder.decode(encoder.finish()).first)
        #expect(layer.values == values)
    }

    @Test func varintsAndZigzag() {
        var writer = ProtobufWriter()
        for value: UInt64 in [0, 1, 127, 128, 300, UInt64.max] { writer.writeVarint(value) }
        #expect(
            writer.bytes == [
                0x00, 0x01, 0x7F, 0x80, 0x01, 0xAC, 0x02, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01,
            ])
        #expect([0, 1, 127, 128, 300, UInt64.max].map(ProtobufWriter.varintSize) == [1, 1, 1, 2, 2, 10])
        #expect(
            [0, -1, 1, -2, 2, Int64.max, Int64.min].map(ProtobufWriter.zigzag) == [
                0, 1, 2, 3, 4, UInt64.max - 1, UInt64.max,
            ])
    }
}

extension Array where Element: Equatable {
    /// Whether the array holds `subsequence` at some place.
    func contains(subsequence: [Element]) -> Bool {
        guard subsequence.count <= count else { return false }
        return (0...(count - subsequence.count)).contains { Array(self[$0..<$0 + subsequence.count]) == subsequence }
    }
}
