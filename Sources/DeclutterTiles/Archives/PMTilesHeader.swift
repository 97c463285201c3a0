import DeclutterClustering
import DeclutterDeflate
import Foundation

/// The 127-byte PMTiles v3 header (spec §3), as this package writes it: clustered, gzip directories and tiles, MVT.
struct PMTilesHeader {
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

    /// Compression values of spec §3.3.
    static let gzip: UInt8 = 2
    /// Tile type MVT (spec §3.2).
    static let mvt: UInt8 = 1

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
        bytes += [1, Self.gzip, Self.gzip, Self.mvt, minZoom, maxZoom]
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
