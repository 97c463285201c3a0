import DeclutterGeometry
import DeclutterTestSupport
import Foundation
import Testing

@Suite struct TilePlanTests {
    /// 800×600 points whose top-left corner is 10 points into tile 13/4400/2686.
    func alignedCamera(bearing: Double = 0) throws -> MapCamera {
        try alignedTileCamera(bearing: bearing)
    }

    @Test func twelveTilesCoverAnAlignedMap() throws {
        let plan = try TilePlan(camera: alignedCamera(), scale: 1, tilePixelSize: 256, zoomRange: 0...19, limit: 100)
        #expect(plan.zoom == 13)
        #expect(
            plan.tiles.map(\.key) == (2686...2688).flatMap { y in (4400...4403).map { TileKey(z: 13, x: $0, y: y) } })
        // @2x output takes 256-px tiles a zoom deeper, or 512-px tiles at the same zoom.
        #expect(
            try TilePlan(camera: alignedCamera(), scale: 2, tilePixelSize: 256, zoomRange: 0...19, limit: 100).zoom
                == 14)
        #expect(
            try TilePlan(camera: alignedCamera(), scale: 2, tilePixelSize: 512, zoomRange: 0...19, limit: 100).zoom
                == 13)
        #expect(
            try TilePlan(camera: alignedCamera(), scale: 1, tilePixelSize: 256, zoomRange: 0...12, limit: 100).zoom
                == 12)
    }

    @Test func tooManyTilesAreRefusedBeforeFetching() throws {
        #expect(throws: TileError.tooManyTiles(needed: 12, limit: 11)) {
            try TilePlan(camera: alignedCamera(), scale: 1, tilePixelSize: 256, zoomRange: 0...19, limit: 11)
        }
        #expect(
            TileError.tooManyTiles(needed: 12, limit: 5).description
                == "the map needs 12 tiles, more than the limit of 5; use a smaller size or a higher zoom, or raise --max-tiles"
        )
    }

    @Test func columnsWrapAcrossTheAntimeridian() throws {
        let camera = try MapCamera(center: Coordinate(longitude: 180, latitude: 0), zoom: 2, width: 256, height: 256)
        let plan = try TilePlan(camera: camera, scale: 1, tilePixelSize: 256, zoomRange: 0...19, limit: 100)
        #expect(plan.tiles.map(\.column) == [3, 4, 3, 4])
        #expect(plan.tiles.map(\.key.x) == [3, 0, 3, 0])
    }

    @Test func aTurnedMapNeedsTheTilesAroundItsCorners() throws {
        // Turned 45°, 800×600 points span (800 + 600)/√2 ≈ 990 points each way around the centre, which is 410, 310
        // points into tile 4400/2686: columns 4399…4403 and rows 2685…2689.
        let plan = try TilePlan(
            camera: alignedCamera(bearing: 45), scale: 1, tilePixelSize: 256, zoomRange: 0...19, limit: 100)
        #expect(plan.tiles.count == 25)
        #expect(
            plan.tiles.first?.key == TileKey(z: 13, x: 4399, y: 2685)
                && plan.tiles.last?.key == TileKey(z: 13, x: 4403, y: 2689))
    }
}
