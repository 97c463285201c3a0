import DeclutterGeometry
import Foundation

/// Tiles from an MBTiles file: an SQLite database with a `tiles` table in TMS rows (row 0 at the south) and a
/// `metadata` table naming attribution, zooms and format.
public final class MBTilesSource: TileSource, Sendable {
    /// The file, shared with ``MBTilesDatabase``'s other readers.
    private let database: MBTilesDatabase
    public let name: String
    public let tilePixelSize: Int
    public let zoomRange: ClosedRange<Int>
    public let attribution: String?
    /// The tile format the metadata declares (`png`, `jpg`, `webp`, `pbf`), if any.
    public let format: String?

    /// Opens an MBTiles file read-only.
    ///
    /// - Throws: ``TileError/invalidSource(source:reason:)`` when the file is missing, not SQLite, has no `tiles`
    /// table, or declares tiles other than PNG.
    public init(path: String, tilePixelSize: Int = 256) throws {
        name = path
        database = try MBTilesDatabase(path: path)
        let metadata = database.metadata
        if let format = metadata["format"], !["png", "image/png"].contains(format.lowercased()) {
            throw TileError.invalidSource(
                source: path, reason: "holds \(format) tiles; only PNG raster tiles can be drawn")
        }
        attribution = metadata["attribution"]
        format = metadata["format"]
        let low = metadata["minzoom"].flatMap { Int($0) } ?? 0, high = metadata["maxzoom"].flatMap { Int($0) } ?? 22
        // Both ends within 0…30, the zooms a tile key can shift by: a minzoom above 30 once made the range's lower
        // bound exceed its upper one, which traps.
        zoomRange = min(30, max(0, min(low, high)))...min(30, max(0, max(low, high)))
        self.tilePixelSize = tilePixelSize
    }

    public func fetch(_ keys: [TileKey]) throws -> [TileKey: Result<Data, TileFailure>] {
        var result: [TileKey: Result<Data, TileFailure>] = [:]
        for key in keys {
            do {
                if let data = try database.tileData(z: key.z, x: key.x, y: key.y) {
                    result[key] = .success(data)
                } else {
                    result[key] = .failure(TileFailure("no tile \(key) in \(name)"))
                }
            } catch {
                result[key] = .failure(error)
            }
        }
        return result
    }
}
