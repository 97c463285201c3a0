import Foundation

/// A PMTiles v3 directory: entries that point at tiles (run length ≥ 1) or at leaf directories (run length 0),
/// serialized as the spec's five varint columns (§4.2).
public struct PMTilesDirectory: Sendable, Hashable {
    /// One directory entry.
    public struct Entry: Sendable, Hashable {
        /// The first tile's id (``PMTilesTileID``).
        public var tileID: UInt64
        /// Where the bytes start: in the tile data section, or in the leaf directories section for a leaf.
        public var offset: UInt64
        /// How many bytes, compressed; never 0.
        public var length: UInt32
        /// How many consecutive tile ids share these bytes; 0 for a leaf directory.
        public var runLength: UInt32

        /// Creates an entry from its four fields.
        public init(tileID: UInt64, offset: UInt64, length: UInt32, runLength: UInt32) {
            self.tileID = tileID
            self.offset = offset
            self.length = length
            self.runLength = runLength
        }
    }

    /// The entries, in ascending tile id.
    public var entries: [Entry]

    /// Creates a directory of entries sorted by tile id.
    public init(_ entries: [Entry]) { self.entries = entries }

    /// The directory's bytes before internal compression: the count, then the tile id deltas, run lengths, lengths,
    /// and offsets, each a varint; an offset that continues the previous entry's bytes is written as 0, any other
    /// as offset + 1.
    public func encoded() -> Data {
        Self.encode(entries[...])
    }

    /// Encodes a slice of entries, so that leaves are cut from one array without copies.
    static func encode(_ entries: ArraySlice<Entry>) -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries.count * 6 + 10)
        appendVarint(UInt64(entries.count), to: &bytes)
        var last: UInt64 = 0
        for entry in entries {
            appendVarint(entry.tileID - last, to: &bytes)
            last = entry.tileID
        }
        for entry in entries { appendVarint(UInt64(entry.runLength), to: &bytes) }
        for entry in entries { appendVarint(UInt64(entry.length), to: &bytes) }
        var previous: Entry?
        for entry in entries {
            if let previous, entry.offset == previous.offset + UInt64(previous.length) {
                bytes.append(0)
            } else {
                appendVarint(entry.offset + 1, to: &bytes)
            }
            previous = entry
        }
        return Data(bytes)
    }

    /// Decodes a directory's bytes (after internal decompression), as ``encoded()`` writes them.
    ///
    /// - Throws: ``TilesetArchiveError`` when the bytes end early or hold more entries than they could encode.
    public init(decoding data: Data) throws {
        var bytes = [UInt8](data)[...]
        func varint() throws -> UInt64 {
            var value: UInt64 = 0, shift: UInt64 = 0
            while let byte = bytes.popFirst() {
                guard shift < 64 else { break }
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
            throw TilesetArchiveError("a PMTiles directory ends early or holds a varint longer than 64 bits")
        }
        let count = try varint()
        // Each entry takes at least four bytes: a larger count is a damaged directory, not an allocation.
        guard count <= UInt64(bytes.count / 4) else {
            throw TilesetArchiveError("a PMTiles directory claims \(count) entries in \(data.count) bytes")
        }
        var entries = [Entry](repeating: Entry(tileID: 0, offset: 0, length: 0, runLength: 0), count: Int(count))
        var last: UInt64 = 0
        for index in entries.indices {
            let (sum, overflow) = last.addingReportingOverflow(try varint())
            guard !overflow else { throw TilesetArchiveError("a PMTiles directory's tile ids overflow") }
            last = sum
            entries[index].tileID = last
        }
        for index in entries.indices { entries[index].runLength = UInt32(truncatingIfNeeded: try varint()) }
        for index in entries.indices { entries[index].length = UInt32(truncatingIfNeeded: try varint()) }
        for index in entries.indices {
            let value = try varint()
            if value == 0, index > 0 {
                entries[index].offset = entries[index - 1].offset &+ UInt64(entries[index - 1].length)
            } else if value == 0 {
                throw TilesetArchiveError("a PMTiles directory's first entry continues no previous one")
            } else {
                entries[index].offset = value - 1
            }
        }
        self.entries = entries
    }

    /// The entry holding `tileID`: the tile's run, or the leaf directory whose range holds it (run length 0), or nil
    /// when no entry does.
    public func entry(holding tileID: UInt64) -> Entry? {
        // The last entry whose id is at most tileID, by bisection.
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].tileID <= tileID { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let entry = entries[low - 1]
        if entry.runLength == 0 || tileID - entry.tileID < UInt64(entry.runLength) { return entry }
        return nil
    }

    /// Appends a protobuf-style varint: seven bits a byte, low bits first, the high bit set on all but the last.
    static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }
}
