import DeclutterClustering
import DeclutterDeflate
import Foundation

/// The 127-byte PMTiles v3 header (spec §3), as this package writes it: clustered, gzip directories and tiles, MVT;
/// and as it reads any archive's.
struct PMTilesHeader: Sendable {
    var rootOffset: UInt64 = 0
    var rootLength: UInt64 = 0
    var metadataOffset: UInt64 = 0
    var metadataLength: UInt64 = 0
    var leavesOffset: UInt64 = 0
    var leavesLength: UInt64 = 0
    var dataOffset: UInt64 = 0
    var dataLength: UInt64 = 0
    var addressedTiles: UInt64 = 0
    var tileEntries: UInt64 = 0
    var tileContents: UInt64 = 0
    var minZoom: UInt8 = 0
    var maxZoom: UInt8 = 0
    var bounds = TileBounds.world
    var center = TilesetMetadata.Center(longitude: 0, latitude: 0, zoom: 0)

    /// How directories and metadata are compressed, and tiles (spec §3.3), in an archive that was read.
    var internalCompression: UInt8 = gzip
    var tileCompression: UInt8 = gzip
    /// The tiles' type (spec §3.2).
    var tileType: UInt8 = mvt

    /// The header's length.
    static let length = 127
    /// Compression values of spec §3.3.
    static let none: UInt8 = 1
    static let gzip: UInt8 = 2
    /// Tile type MVT (spec §3.2).
    static let mvt: UInt8 = 1

    /// Reads a header.
    ///
    /// - Throws: ``TilesetArchiveError`` when the bytes are not a PMTiles v3 header.
    init(decoding data: Data) throws {
        let bytes = [UInt8](data.prefix(Self.length))
        guard bytes.count == Self.length, bytes[0..<7].elementsEqual("PMTiles".utf8) else {
            throw TilesetArchiveError("not a PMTiles archive (its first bytes are not \"PMTiles\")")
        }
        guard bytes[7] == 3 else {
            throw TilesetArchiveError("a PMTiles archive of version \(bytes[7]); expected version 3")
        }
        func uint64(_ at: Int) -> UInt64 {
            (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) }
        }
        func degrees(_ at: Int) -> Double {
            let raw = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) }
            return Double(Int32(bitPattern: raw)) / 10_000_000
        }
        rootOffset = uint64(8)
        rootLength = uint64(16)
        metadataOffset = uint64(24)
        metadataLength = uint64(32)
        leavesOffset = uint64(40)
        leavesLength = uint64(48)
        dataOffset = uint64(56)
        dataLength = uint64(64)
        addressedTiles = uint64(72)
        tileEntries = uint64(80)
        tileContents = uint64(88)
        internalCompression = bytes[97]
        tileCompression = bytes[98]
        tileType = bytes[99]
        minZoom = bytes[100]
        maxZoom = bytes[101]
        bounds = TileBounds(west: degrees(102), south: degrees(106), east: degrees(110), north: degrees(114))
        center = TilesetMetadata.Center(longitude: degrees(119), latitude: degrees(123), zoom: Int(bytes[118]))
    }

    init() {}

    /// The header's bytes: magic `PMTiles`, version 3, eleven little-endian 64-bit fields, then clustered, internal
    /// compression, tile compression, tile type, zooms, and positions as degrees × 10⁷ in 32-bit integers.
    func encoded() -> Data {
        var bytes = [UInt8]("PMTiles".utf8)
        bytes.append(3)
        for field in [
            rootOffset, rootLength, metadataOffset, metadataLength, leavesOffset, leavesLength, dataOffset, dataLength,
            addressedTiles, tileEntries, tileContents,
        ] {
            withUnsafeBytes(of: field.littleEndian) { bytes.append(contentsOf: $0) }
        }
        bytes += [1, internalCompression, tileCompression, tileType, minZoom, maxZoom]
        func position(_ longitude: Double, _ latitude: Double) {
            for degrees in [longitude, latitude] {
                withUnsafeBytes(of: Int32((degrees * 10_000_000).rounded()).littleEndian) {
                    bytes.append(contentsOf: $0)
                }
            }
        }
        position(bounds.west, bounds.south)
        position(bounds.east, bounds.north)
        bytes.append(UInt8(clamping: center.zoom))
        position(center.longitude, center.latitude)
        return Data(bytes)
    }
}
