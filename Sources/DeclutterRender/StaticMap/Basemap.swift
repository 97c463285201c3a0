import Foundation

/// What a static map draws under its markers.
public enum Basemap: Sendable {
    /// The style's background colour only.
    case none
    /// The embedded world basemap (Natural Earth countries).
    case world
    /// Raster tiles, fetched for the map.
    case tiles(RasterTiles)
}
