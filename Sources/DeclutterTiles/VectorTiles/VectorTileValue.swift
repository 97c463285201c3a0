import DeclutterSupport

/// A property value of a vector tile feature: one of the spec's `Value` message fields.
public enum VectorTileValue: Sendable, Hashable {
    /// `string_value` (1).
    case string(String)
    /// `float_value` (2).
    case float(Float)
    /// `double_value` (3).
    case double(Double)
    /// `int_value` (4): int64 as a varint of its two's complement (ten bytes when negative).
    case int(Int64)
    /// `uint_value` (5).
    case uint(UInt64)
    /// `sint_value` (6): zigzag varint.
    case sint(Int64)
    /// `bool_value` (7).
    case bool(Bool)

    /// A number as the smallest field that holds it exactly: a whole number in ±2^53 as `uint_value` (≥ 0) or
    /// `sint_value` (< 0), anything else as `double_value`.
    public init(number: Double) {
        // 2^53: beyond it a double no longer holds every whole number, so it may not be the one meant.
        if number == number.rounded(), abs(number) <= 9_007_199_254_740_992 {
            self = number >= 0 ? .uint(UInt64(number)) : .sint(Int64(number))
        } else {
            self = .double(number)
        }
    }

    /// A JSON value as a tile holds it: numbers as ``init(number:)``, strings, booleans, arrays and objects as their
    /// JSON text; nil for `null`, which a tile cannot hold (the property is left out).
    public init?(json: JSONValue) {
        switch json {
        case .null: return nil
        case let .bool(value): self = .bool(value)
        case let .number(value): self.init(number: value)
        case let .string(value): self = .string(value)
        case .array, .object: self = .string(json.jsonText)
        }
    }

    /// The name MBTiles' `vector_layers` gives the field's type: `Number`, `String` or `Boolean`.
    public var fieldType: VectorTileFieldType {
        switch self {
        case .string: .string
        case .bool: .boolean
        case .float, .double, .int, .uint, .sint: .number
        }
    }

    /// The `Value` message's body.
    func write(to writer: inout ProtobufWriter) {
        switch self {
        case let .string(value): writer.writeStringField(1, value)
        case let .float(value): writer.writeFloatField(2, value)
        case let .double(value): writer.writeDoubleField(3, value)
        case let .int(value): writer.writeVarintField(4, UInt64(bitPattern: value))
        case let .uint(value): writer.writeVarintField(5, value)
        case let .sint(value): writer.writeSignedField(6, value)
        case let .bool(value): writer.writeBoolField(7, value)
        }
    }
}
