import DeclutterGeometry
import DeclutterRender
import DeclutterTileSources
import Foundation

extension TileSource {
    /// The tiles a map at `camera` needs, fetched: planned for `scale` pixels per point and refused beyond `limit`
    /// before any request goes out, each key asked for once, in the plan's order (row by row), so that requests go
    /// out in a foreseeable order.
    ///
    /// - Throws: ``TileError/tooManyTiles(needed:limit:)`` before fetching; ``TileError/unreachable(source:reason:)``
    ///   when a server cannot be reached at all.
    public func tiles(for camera: MapCamera, scale: Double, limit: Int) throws -> RasterTiles {
        let plan = try TilePlan(
            camera: camera, scale: scale, tilePixelSize: tilePixelSize, zoomRange: zoomRange, limit: limit)
        var seen = Set<TileKey>()
        let keys = plan.tiles.map(\.key).filter { seen.insert($0).inserted }
        var fetched = try fetch(keys)
        var images: [TileKey: Data] = [:], failures: [TileKey: TileFailure] = [:]
        for key in keys {
            switch fetched.removeValue(forKey: key) {
            case let .success(data)?: images[key] = data
            case let .failure(failure)?: failures[key] = failure
            case nil: failures[key] = TileFailure("not returned by \(name)")
            }
        }
        return RasterTiles(plan: plan, images: images, failures: failures, source: name, attribution: attribution)
    }
}
