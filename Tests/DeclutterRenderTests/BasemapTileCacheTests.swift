import DeclutterGeometry
import DeclutterStyle
import Foundation
import Testing

@testable import DeclutterRender

/// ``BasemapTileCache`` against the basemap drawn whole: where the map lies on the world's pixel grid the two are the
/// same picture but for a few edge pixels of strokes, tile seams and the antimeridian included, and a second map takes
/// its tiles from the cache.
@Suite struct BasemapTileCacheTests {
    /// The map drawn with and without the cache, as straight RGBA.
    static func both(_ camera: MapCamera, scale: Double, cache: BasemapTileCache) throws -> (
        whole: [UInt8], tiled: [UInt8]
    ) {
        let style = try bundledStyle("default")
        let whole = try StaticMapRenderer(style: style), tiled = try StaticMapRenderer(style: style)
        tiled.basemapTiles = cache
        let map = StaticMap(camera: camera, scale: scale)
        return (
            try whole.render(map, format: .png).canvas.surface.straightRGBA(),
            try tiled.render(map, format: .png).canvas.surface.straightRGBA()
        )
    }

    @Test(arguments: [(0.0, 0.0, 4.0, 1.0), (-180.0, 20.0, 2.0, 1.0), (10.0, 45.0, 6.0, 2.0), (179.0, -15.0, 9.0, 1.0)])
    func aTiledBasemapIsTheWholeOne(longitude: Double, latitude: Double, zoom: Double, scale: Double) throws {
        // The centre moved onto the pixel grid, so that the map's corner is a whole device pixel of the world.
        let pixels = 256 * pow(2, zoom) * scale
        let x = (WebMercator.x(longitude: longitude) * pixels).rounded() / pixels,
            y = (WebMercator.y(latitude: latitude) * pixels).rounded() / pixels
        let camera = try MapCamera(
            center: Coordinate(longitude: WebMercator.longitude(x: x), latitude: WebMercator.latitude(y: y)),
            zoom: zoom, width: 600, height: 400)
        #expect(BasemapTileCache.serves(camera, scale: scale, format: .png))
        let cache = BasemapTileCache()
        let (whole, tiled) = try Self.both(camera, scale: scale, cache: cache)
        #expect(whole.count == tiled.count)
        let largest = zip(whole, tiled).map { abs(Int($0) - Int($1)) }.max() ?? 0
        let differing = stride(from: 0, to: whole.count, by: 4).count { whole[$0..<$0 + 4] != tiled[$0..<$0 + 4] }
        // Borders and rivers stroked from a tile's centre rather than the map's round a few edge pixels differently
        // (cairo's stroker in fixed point): under 1 % of the pixels, by less than an eighth of the scale.
        #expect(differing * 100 < whole.count / 4, "\(differing) pixels differ")
        #expect(largest <= 32, "largest channel difference \(largest)")
        let made = cache.statistics.entries
        #expect(made > 0)
        // The same map again: every tile from the cache.
        _ = try Self.both(camera, scale: scale, cache: cache)
        #expect(cache.statistics.entries == made)
        #expect(cache.statistics.hits == made)
    }

    @Test func turnedFractionalAndVectorMapsAreDrawnWhole() throws {
        let camera = try MapCamera(center: Coordinate(longitude: 10, latitude: 45), zoom: 4, width: 600, height: 400)
        #expect(
            !BasemapTileCache.serves(
                try MapCamera(center: camera.center, zoom: 4.5, width: 600, height: 400), scale: 1, format: .png))
        #expect(
            !BasemapTileCache.serves(
                try MapCamera(center: camera.center, zoom: 4, bearing: 30, width: 600, height: 400), scale: 1,
                format: .png))
        #expect(
            !BasemapTileCache.serves(
                try MapCamera(center: camera.center, zoom: 4, pitch: 30, width: 600, height: 400), scale: 1,
                format: .png))
        #expect(!BasemapTileCache.serves(camera, scale: 1, format: .svg))
        #expect(
            !BasemapTileCache.serves(
                try MapCamera(center: camera.center, zoom: 12, width: 600, height: 400), scale: 1, format: .png))
    }
}
