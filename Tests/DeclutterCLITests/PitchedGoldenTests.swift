import DeclutterCommandLine
import DeclutterGeometry
import DeclutterRender
import DeclutterStyle
import DeclutterTesting
import DeclutterTileSources
import Foundation
import Testing

/// Pitched maps as `render --pitch` draws them, pinned by golden images: the TANDm and airports maps tilted with a
/// bearing over the embedded basemap, and a route over raster tiles of several zooms.
@Suite struct PitchedGoldenTests {
    let goldens: GoldenFiles
    init() throws { goldens = try GoldenFiles(suite: "PitchedGoldenTests") }

    /// The TANDm sample over street-like tiles of the zooms the tilted map needs.
    @Test(arguments: [
        (
            45.0, 30.0,
            "wrote map.png: 400×400 pt (400×400 px), zoom 15.50, 65 points in 15 views shown (12 clusters, 3 markers)\n"
        ),
        (
            60.0, 300.0,
            "wrote map.png: 400×400 pt (400×400 px), zoom 15.50, 63 of 65 points on the map, in 10 views shown (8 clusters, 2 markers)\n"
        ),
    ])
    func tandmTilted(pitch: Double, bearing: Double, expected: String) throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let camera = try MapCamera(
            center: Coordinate(longitude: -122.414, latitude: 37.806), zoom: 15.5, bearing: bearing, pitch: pitch,
            width: 400, height: 400)
        let plan = try TilePlan(camera: camera, scale: 1, tilePixelSize: 256, zoomRange: 0...19, limit: 256)
        let tiles = try writeTestTiles(Array(Set(plan.tiles.map(\.key))), into: folder)
        let result = try CommandResult.run(
            [
                "render", "--input", tandmPlist, "--size", "400x400", "--center", "37.806,-122.414", "--zoom", "15.5",
                "--pitch", "\(Int(pitch))", "--bearing", "\(Int(bearing))", "--tiles", tiles.path,
                "--attribution", "test tiles", "--output", "map.png",
            ], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == expected)
        try goldens.verifyPNG(
            Data(contentsOf: folder.appendingPathComponent("map.png")), test: "tandmTilted", name: "tandm-\(Int(pitch))"
        )
    }

    @Test(arguments: [
        (
            45.0, 20.0,
            "wrote map.png: 600×400 pt (600×400 px), zoom 4.30, 271 of 300 points on the map, in 61 views shown (48 clusters, 13 markers)\n"
        ),
        (
            60.0, 340.0,
            "wrote map.png: 600×400 pt (600×400 px), zoom 4.30, 283 of 300 points on the map, in 51 views shown (39 clusters, 12 markers)\n"
        ),
    ])
    func airportsTilted(pitch: Double, bearing: Double, expected: String) throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let airports = packageRoot.appendingPathComponent("Examples/airports.csv").path
        let result = try CommandResult.run(
            [
                "render", "--input", airports, "--category", "country", "--center", "48,10", "--zoom", "4.3",
                "--size", "600x400", "--pitch", "\(Int(pitch))", "--bearing", "\(Int(bearing))",
                "--output", "map.png",
            ], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == expected)
        try goldens.verifyPNG(
            Data(contentsOf: folder.appendingPathComponent("map.png")), test: "airportsTilted",
            name: "airports-\(Int(pitch))")
    }

    /// The route of `RenderCommandTests.routeOverLocalTiles` tilted back 60° and turned 30°: the far rows' tiles come
    /// from zoom 13, the rest from the centre's 14, and the route and circle follow the same projection.
    @Test func routeOverTiltedTiles() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let camera = try MapCamera(
            center: Coordinate(longitude: -122.467, latitude: 37.811), zoom: 14.3, bearing: 30, pitch: 60,
            width: 480, height: 360)
        let plan = try TilePlan(camera: camera, scale: 1, tilePixelSize: 256, zoomRange: 0...19, limit: 256)
        #expect(Set(plan.tiles.map(\.key.z)) == [13, 14])
        let tiles = try writeTestTiles(Array(Set(plan.tiles.map(\.key))), into: folder)
        let route = try writeGoldenGateStops(into: folder)
        let result = try CommandResult.run(
            [
                "render", "--input", "stops.geojson", "--category", "kind", "--size", "480x360",
                "--center", "37.811,-122.467", "--zoom", "14.3", "--bearing", "30", "--pitch", "60",
                "--tiles", tiles.path, "--attribution", "test tiles", "--polyline", route,
                "--circle", "37.8080,-122.4740,300", "--output", "route.png",
            ], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        #expect(
            result.stdout
                == "wrote route.png: 480×360 pt (480×360 px), zoom 14.30, 2 points in 2 views shown (0 clusters, 2 markers)\n"
        )
        try goldens.verifyPNG(
            Data(contentsOf: folder.appendingPathComponent("route.png")), test: "routeOverTiltedTiles",
            name: "golden-gate-60")
    }
}
