import DeclutterGeometry
import DeclutterRender
import DeclutterTileSources
import Foundation

extension MapDescription {
    /// The map with its basemap's tiles fetched for the camera it will be drawn with: a ``BasemapSource/tiles(_:)``
    /// basemap becomes ``BasemapSource/fetched(_:)``; any other is returned as it is.
    ///
    /// Drawing then does no I/O, so a server can fetch on threads of their own and draw on others: a tile server that
    /// hangs holds the fetching threads only. The camera is resolved as ``draw(format:renderer:)`` resolves it, from
    /// the same points, so the tiles are the ones the drawing needs.
    ///
    /// - Throws: ``CameraError`` for a camera out of range; ``TileError/tooManyTiles(needed:limit:)`` before fetching;
    ///   ``TileError/unreachable(source:reason:)`` when the server cannot be reached at all.
    public func fetchingTiles(format: OutputFormat) throws -> MapDescription {
        guard case let .tiles(source) = basemap else { return self }
        let camera = try camera(world: annotator?.projected ?? ProjectedPoints(points))
        var map = self
        map.basemap = .fetched(
            try source.tiles(
                for: camera, scale: StaticMapRenderer.tileScale(camera: camera, scale: scale, format: format),
                limit: maxTiles))
        return map
    }

    /// The tiles a fetched basemap failed to get, counted once each; 0 for any other basemap.
    public var missingTileCount: Int {
        guard case let .fetched(tiles) = basemap else { return 0 }
        return tiles.failures.count
    }

    /// The first tile a fetched basemap failed to get, in its plan's order, and why (as the tile source said it, its
    /// URL included); nil when none failed.
    public var firstTileFailure: String? {
        guard case let .fetched(tiles) = basemap, let first = tiles.firstFailure else { return nil }
        return "tile \(first.key): \(first.failure.reason)"
    }
}
