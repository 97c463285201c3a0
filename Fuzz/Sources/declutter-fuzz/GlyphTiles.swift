import DeclutterGeometry
import DeclutterTileSources
import Foundation

/// Tiles for the `camera` target: every tile of every zoom is the 1×1 glyph image, scaled to the tile's size as a
/// server's odd-sized tile would be, so that maps over tiles cost no decoding to speak of.
struct GlyphTiles: TileSource {
    let name = "glyph tiles"
    let tilePixelSize = 256
    let zoomRange = 0...18
    let attribution: String? = nil

    func fetch(_ keys: [TileKey]) throws -> [TileKey: Result<Data, TileFailure>] {
        Dictionary(uniqueKeysWithValues: keys.map { ($0, .success(Data(FuzzTarget.glyph))) })
    }
}
