import DeclutterClustering
import Foundation

@testable import DeclutterTiles

/// A minimal Mapbox vector tile reader written apart from the encoder, from the spec's `vector_tile.proto`, so that
/// tests check the encoder's bytes against an independent reading of them.
struct TileDecoder {
    struct Feature: Equatable {
        var id: UInt64?
        var type: UInt64 = 0
        var tags: [UInt64] = []
        var geometry: [UInt64] = []
    }

    struct Layer {
        var name = ""
        var version: UInt64 = 1
        var extent: UInt64 = 4096
        var keys: [String] = []
        var values: [VectorTileValue] = []
        var features: [Feature] = []

        /// A feature's properties by key.
        func properties(_ feature: Feature) -> [String: VectorTileValue] {
            var result: [String: VectorTileValue] = [:]
            for pair in stride(from: 0, to: feature.tags.count - 1, by: 2) {
                result[keys[Int(feature.tags[pair])]] = values[Int(feature.tags[pair + 1])]
            }
            return result
        }

        /// A point feature's position: its one MoveTo's zigzag parameters.
        func point(_ feature: Feature) -> (x: Int64, y: Int64)? {
            guard feature.geometry.count == 3, feature.geometry[0] == 9 else { return nil }
            func unzigzag(_ value: UInt64) -> Int64 { Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1) }
            return (unzigzag(feature.geometry[1]), unzigzag(feature.geometry[2]))
        }
    }

    struct Malformed: Error {}

    /// The fields of one message: (field number, wire type, varint or fixed value, or the bytes of a
    /// length-delimited field).
    struct Reader {
        let bytes: [UInt8]
        var position = 0

        mutating func varint() throws -> UInt64 {
            var result: UInt64 = 0, shift: UInt64 = 0
            while true {
                guard position < bytes.count, shift < 64 else { throw Malformed() }
                let byte = bytes[position]
                position += 1
                result |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return result }
                shift += 7
            }
        }

        mutating func field() throws -> (number: Int, type: Int, value: UInt64, bytes: [UInt8])? {
            guard position < bytes.count else { return nil }
            let tag = try varint()
            let number = Int(tag >> 3), type = Int(tag & 7)
            switch type {
            case 0: return (number, type, try varint(), [])
            case 1, 5:
                let width = type == 1 ? 8 : 4
                guard position + width <= bytes.count else { throw Malformed() }
                var value: UInt64 = 0
                for index in 0..<width { value |= UInt64(bytes[position + index]) << (8 * UInt64(index)) }
                position += width
                return (number, type, value, [])
            case 2:
                let length = Int(try varint())
                guard length >= 0, position + length <= bytes.count else { throw Malformed() }
                defer { position += length }
                return (number, type, 0, Array(bytes[position..<position + length]))
            default: throw Malformed()
            }
        }

        static func packed(_ bytes: [UInt8]) throws -> [UInt64] {
            var reader = Reader(bytes: bytes), result: [UInt64] = []
            while reader.position < bytes.count { result.append(try reader.varint()) }
            return result
        }
    }

    static func decode(_ data: Data) throws -> [Layer] {
        var tile = Reader(bytes: Array(data)), layers: [Layer] = []
        while let field = try tile.field() {
            guard field.number == 3, field.type == 2 else { continue }
            var reader = Reader(bytes: field.bytes), layer = Layer()
            while let field = try reader.field() {
                switch field.number {
                case 1: layer.name = String(decoding: field.bytes, as: UTF8.self)
                case 2: layer.features.append(try feature(field.bytes))
                case 3: layer.keys.append(String(decoding: field.bytes, as: UTF8.self))
                case 4: layer.values.append(try value(field.bytes))
                case 5: layer.extent = field.value
                case 15: layer.version = field.value
                default: break
                }
            }
            layers.append(layer)
        }
        return layers
    }

    static func feature(_ bytes: [UInt8]) throws -> Feature {
        var reader = Reader(bytes: bytes), feature = Feature()
        while let field = try reader.field() {
            switch field.number {
            case 1: feature.id = field.value
            case 2: feature.tags = try Reader.packed(field.bytes)
            case 3: feature.type = field.value
            case 4: feature.geometry = try Reader.packed(field.bytes)
            default: break
            }
        }
        return feature
    }

    static func value(_ bytes: [UInt8]) throws -> VectorTileValue {
        var reader = Reader(bytes: bytes)
        guard let field = try reader.field() else { throw Malformed() }
        switch field.number {
        case 1: return .string(String(decoding: field.bytes, as: UTF8.self))
        case 2: return .float(Float(bitPattern: UInt32(field.value)))
        case 3: return .double(Double(bitPattern: field.value))
        case 4: return .int(Int64(bitPattern: field.value))
        case 5: return .uint(field.value)
        case 6: return .sint(Int64(bitPattern: field.value >> 1) ^ -Int64(bitPattern: field.value & 1))
        case 7: return .bool(field.value != 0)
        default: throw Malformed()
        }
    }
}
