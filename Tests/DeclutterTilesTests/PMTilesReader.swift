import DeclutterClustering
import DeclutterDeflate
import DeclutterStyle
import DeclutterTiles
import Foundation

/// A small PMTiles v3 reader written from the spec, to read back what the writer wrote: header fields, directories
/// (root and leaves), tiles by z/x/y.
struct PMTilesReader {
    struct Header {
        var rootOffset, rootLength, metadataOffset, metadataLength, leavesOffset, leavesLength, dataOffset,
            dataLength: UInt64
        var addressedTiles, tileEntries, tileContents: UInt64
        var clustered, internalCompression, tileCompression, tileType, minZoom, maxZoom, centerZoom: UInt8
        var west, south, east, north, centerLongitude, centerLatitude: Int32
    }

    struct ReadError: Error, CustomStringConvertible { var description: String }

    let bytes: Data
    let header: Header
    /// How many leaf directories a lookup has read, to show that leaves were used.
    private(set) var leavesRead = 0
    /// Leaves decoded so far, by offset, so that reading every tile decodes each leaf once.
    private var leaves: [UInt64: [PMTilesDirectory.Entry]] = [:]

    init(path: String) throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        self.bytes = bytes
        guard bytes.count >= 127, bytes.prefix(7) == Data("PMTiles".utf8), bytes[7] == 3 else {
            throw ReadError(description: "not a PMTiles v3 archive")
        }
        func u64(_ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) } }
        func i32(_ at: Int) -> Int32 {
            Int32(bitPattern: (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) })
        }
        header = Header(
            rootOffset: u64(8), rootLength: u64(16), metadataOffset: u64(24), metadataLength: u64(32),
            leavesOffset: u64(40), leavesLength: u64(48), dataOffset: u64(56), dataLength: u64(64),
            addressedTiles: u64(72), tileEntries: u64(80), tileContents: u64(88),
            clustered: bytes[96], internalCompression: bytes[97], tileCompression: bytes[98], tileType: bytes[99],
            minZoom: bytes[100], maxZoom: bytes[101], centerZoom: bytes[118],
            west: i32(102), south: i32(106), east: i32(110), north: i32(114), centerLongitude: i32(119),
            centerLatitude: i32(123))
    }

    func slice(_ offset: UInt64, _ length: UInt64) -> Data {
        Data(bytes[Int(offset)..<Int(offset + length)])
    }

    /// The metadata, decompressed.
    func metadata() throws -> [String: Any] {
        let json = try Gzip.decompress(slice(header.metadataOffset, header.metadataLength))
        return try JSONSerialization.jsonObject(with: json) as? [String: Any] ?? [:]
    }

    /// The root directory's entries.
    func root() throws -> [PMTilesDirectory.Entry] {
        try Self.decode(Gzip.decompress(slice(header.rootOffset, header.rootLength)))
    }

    /// The tile's bytes as stored (gzip), or nil when the archive has none there.
    mutating func tile(z: Int, x: Int, y: Int) throws -> Data? {
        let id = PMTilesTileID.id(z: z, x: x, y: y)
        var entries = try root()
        for _ in 0..<4 {
            // The last entry whose id is not above the tile's.
            var low = 0, high = entries.count
            while low < high {
                let middle = (low + high) / 2
                if entries[middle].tileID <= id { low = middle + 1 } else { high = middle }
            }
            guard low > 0 else { return nil }
            let entry = entries[low - 1]
            if entry.runLength == 0 {
                leavesRead += 1
                if let known = leaves[entry.offset] {
                    entries = known
                } else {
                    entries = try Self.decode(
                        Gzip.decompress(slice(header.leavesOffset + entry.offset, UInt64(entry.length))))
                    leaves[entry.offset] = entries
                }
                continue
            }
            guard id < entry.tileID + UInt64(entry.runLength) else { return nil }
            return slice(header.dataOffset + entry.offset, UInt64(entry.length))
        }
        throw ReadError(description: "directories nested more than four deep")
    }

    /// Decodes a directory's varint columns (spec §4.3).
    static func decode(_ data: Data) throws -> [PMTilesDirectory.Entry] {
        var position = data.startIndex
        func varint() throws -> UInt64 {
            var value: UInt64 = 0, shift: UInt64 = 0
            while true {
                guard position < data.endIndex else { throw ReadError(description: "directory ends inside a varint") }
                let byte = data[position]
                position += 1
                value |= UInt64(byte & 0x7f) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
        }
        let count = Int(try varint())
        var entries = [PMTilesDirectory.Entry](
            repeating: .init(tileID: 0, offset: 0, length: 0, runLength: 0), count: count)
        var last: UInt64 = 0
        for index in 0..<count {
            last += try varint()
            entries[index].tileID = last
        }
        for index in 0..<count { entries[index].runLength = UInt32(try varint()) }
        for index in 0..<count { entries[index].length = UInt32(try varint()) }
        for index in 0..<count {
            let offset = try varint()
            if offset == 0, index > 0 {
                entries[index].offset = entries[index - 1].offset + UInt64(entries[index - 1].length)
            } else {
                entries[index].offset = offset - 1
            }
        }
        guard position == data.endIndex else { throw ReadError(description: "bytes after the directory") }
        return entries
    }
}
