import DeclutterMapContent

/// Appends Protocol Buffers wire format to a byte buffer: varints, zigzag, field tags, length-delimited fields and
/// packed repeated fields — what a Mapbox vector tile is made of.
///
/// Fields are written in the order they are called; nothing is buffered besides the bytes themselves.
public struct ProtobufWriter: Sendable {
    /// Protocol Buffers wire types (the low three bits of a field's tag).
    public enum WireType: UInt64, Sendable {
        /// int32, int64, uint32, uint64, sint32, sint64, bool, enum.
        case varint = 0
        /// fixed64, double.
        case fixed64 = 1
        /// strings, bytes, embedded messages, packed repeated fields.
        case lengthDelimited = 2
        /// fixed32, float.
        case fixed32 = 5
    }

    /// The bytes written so far.
    public var bytes: [UInt8]

    /// Creates a writer with an empty buffer of `capacity` bytes reserved.
    public init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// A base-128 varint: seven bits a byte, least significant first, the high bit set on all but the last.
    @inline(__always)
    public mutating func writeVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// The number of bytes ``writeVarint(_:)`` takes for `value`.
    @inline(__always)
    public static func varintSize(_ value: UInt64) -> Int {
        // One byte per started group of seven bits, at least one.
        (64 - (value | 1).leadingZeroBitCount + 6) / 7
    }

    /// Zigzag encoding (sint32/sint64, and vector tile parameter integers): 0, -1, 1, -2, … become 0, 1, 2, 3, ….
    @inline(__always)
    public static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    /// A field's tag: its number and wire type.
    @inline(__always)
    public mutating func writeTag(_ field: Int, _ type: WireType) {
        writeVarint(UInt64(field) << 3 | type.rawValue)
    }

    /// A varint field (uint32, uint64, enum, and int64 as its two's complement).
    public mutating func writeVarintField(_ field: Int, _ value: UInt64) {
        writeTag(field, .varint)
        writeVarint(value)
    }

    /// An sint64 field: zigzag, then varint.
    public mutating func writeSignedField(_ field: Int, _ value: Int64) {
        writeVarintField(field, Self.zigzag(value))
    }

    /// A bool field.
    public mutating func writeBoolField(_ field: Int, _ value: Bool) {
        writeVarintField(field, value ? 1 : 0)
    }

    /// A double field: eight bytes, little-endian.
    public mutating func writeDoubleField(_ field: Int, _ value: Double) {
        writeTag(field, .fixed64)
        var bits = value.bitPattern
        for _ in 0..<8 {
            bytes.append(UInt8(truncatingIfNeeded: bits))
            bits >>= 8
        }
    }

    /// A float field: four bytes, little-endian.
    public mutating func writeFloatField(_ field: Int, _ value: Float) {
        writeTag(field, .fixed32)
        var bits = value.bitPattern
        for _ in 0..<4 {
            bytes.append(UInt8(truncatingIfNeeded: bits))
            bits >>= 8
        }
    }

    /// A length-delimited field holding `content` as it is (bytes, or an embedded message already encoded).
    public mutating func writeBytesField<Content: Collection<UInt8>>(_ field: Int, _ content: Content) {
        writeTag(field, .lengthDelimited)
        writeVarint(UInt64(content.count))
        bytes.append(contentsOf: content)
    }

    /// A string field, in UTF-8.
    public mutating func writeStringField(_ field: Int, _ value: String) {
        var value = value
        value.withUTF8 { writeBytesField(field, $0) }
    }

    /// A packed repeated field of varints (`[packed = true]` uint32/uint64).
    public mutating func writePackedVarints(_ field: Int, _ values: some Collection<UInt64>) {
        guard !values.isEmpty else { return }
        writeTag(field, .lengthDelimited)
        writeVarint(UInt64(values.reduce(0) { $0 + Self.varintSize($1) }))
        for value in values { writeVarint(value) }
    }
}
