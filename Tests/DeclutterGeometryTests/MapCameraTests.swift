import DeclutterGeometry
import DeclutterTestSupport
import Foundation
import Testing

/// Web Mercator positions against mercantile, and the camera's projection, turning and fitting.
@Suite struct MapCameraTests {
    struct Row: Decodable {
        var lon: Double
        var lat: Double
        var zoom: Int
        var x: Double
        var y: Double
        var tile: [Int]
    }
    struct Fixture: Decodable { var points: [Row] }

    @Test func pixelsMatchMercantileAtEveryZoom() throws {
        let data = try Data(contentsOf: coreFixtures.appendingPathComponent("mercantile/pixels.json"))
        let rows = try JSONDecoder().decode(Fixture.self, from: data).points
        #expect(rows.count == 252)
        #expect(Set(rows.map(\.zoom)) == Set(0...20))
        for row in rows {
            let (x, y) = WebMercator.pixel(
                of: Coordinate(longitude: row.lon, latitude: row.lat), zoom: Double(row.zoom))
            #expect(
                abs(x - row.x) < 0.5 && abs(y - row.y) < 0.5,
                "\(row.lon), \(row.lat) at z\(row.zoom): \(x), \(y) vs \(row.x), \(row.y)")
            #expect([Int((x / 256).rounded(.down)), Int((y / 256).rounded(.down))] == row.tile)
        }
    }

    struct MapLibreCamera: Decodable {
        var center: [Double]
        var zoom: Double
        var bearing: Double
        var pitch: Double
        var points: [[Double]]
    }
    struct MapLibreFixture: Decodable {
        var maplibre: String
        var width: Double
        var height: Double
        var cameras: [MapLibreCamera]
    }

    /// MapLibre GL JS's own `map.project` (Fixtures/maplibre, made by scripts/maplibre-project), flat and pitched:
    /// MapLibre counts zooms in 512-px tiles, so its zoom z is Declutter's z + 1.
    @Test func pitchedPointsMatchMapLibre() throws {
        let data = try Data(contentsOf: coreFixtures.appendingPathComponent("maplibre/project.json"))
        let fixture = try JSONDecoder().decode(MapLibreFixture.self, from: data)
        #expect(
            fixture.cameras.map(\.pitch).sorted() == [0, 0, 45, 45, 60, 60]
                && fixture.cameras.allSatisfy { $0.bearing != 0 })
        var compared = 0
        for row in fixture.cameras {
            let camera = try MapCamera(
                center: Coordinate(longitude: row.center[0], latitude: row.center[1]), zoom: row.zoom + 1,
                bearing: row.bearing, pitch: row.pitch, width: fixture.width, height: fixture.height)
            for point in row.points {
                let ours = camera.point(for: Coordinate(longitude: point[0], latitude: point[1]))
                #expect(
                    abs(ours.x - point[2]) < 0.01 && abs(ours.y - point[3]) < 0.01,
                    "\(point[0]), \(point[1]) at pitch \(row.pitch): \(ours) against MapLibre \(point[2]), \(point[3])")
                compared += 1
            }
        }
        #expect(compared == 72)
    }

    @Test func centreAndOffsets() throws {
        let camera = try MapCamera(center: Coordinate(longitude: 0, latitude: 0), zoom: 1, width: 800, height: 600)
        #expect(camera.worldSize == 512)
        let center = camera.point(for: Coordinate(longitude: 0, latitude: 0))
        #expect(center.x == 400 && center.y == 300)
        // 90° east is a quarter of the 512-point world to the right.
        let east = camera.point(for: Coordinate(longitude: 90, latitude: 0))
        #expect(east.x == 528 && east.y == 300)
    }

    @Test func bearingTurnsTheMap() throws {
        // Facing east, what lies east of the centre appears above it.
        let camera = try MapCamera(
            center: Coordinate(longitude: 10, latitude: 50), zoom: 10, bearing: 90, width: 400, height: 400)
        let east = camera.point(for: Coordinate(longitude: 10.01, latitude: 50))
        #expect(abs(east.x - 200) < 1e-9)
        #expect(east.y < 200 && abs(east.y - (200 - 0.01 / 360 * camera.worldSize)) < 1e-6)
        let back = camera.coordinate(atX: east.x, y: east.y)
        #expect(abs(back.longitude - 10.01) < 1e-9 && abs(back.latitude - 50) < 1e-9)
        #expect(
            try MapCamera(center: Coordinate(longitude: 0, latitude: 0), zoom: 1, bearing: -90, width: 1, height: 1)
                .bearing == 270)
    }

    @Test func fittingTheTandmRegion() throws {
        let region = WorldBounds(
            center: Coordinate(longitude: -122.413632917219, latitude: 37.8050315413548),
            latitudeDelta: 0.00978871051851371, longitudeDelta: 0.008167393319212121)
        let camera = try MapCamera.fitting(region, width: 390, height: 600, maxZoom: 22)
        // The region's width is the binding side (16.035 against 16.054 for its height): it fills the 390 points
        // exactly.
        let west = camera.point(
            for: Coordinate(longitude: -122.413632917219 - 0.008167393319212121 / 2, latitude: 37.8050315413548))
        let east = camera.point(
            for: Coordinate(longitude: -122.413632917219 + 0.008167393319212121 / 2, latitude: 37.8050315413548))
        #expect(abs(west.x) < 1e-6 && abs(east.x - 390) < 1e-6)
        #expect(abs(camera.zoom - log2(390 / (0.008167393319212121 / 360 * 256))) < 1e-9)
        #expect(abs(camera.zoom - 16.0351) < 1e-4)
    }

    /// Points beyond Web Mercator's edge (86°N, the South Pole) sit on the world's top or bottom edge, which the fit
    /// keeps the padding away from the map's own: the map shows no more beyond the world than its padding.
    @Test(arguments: [86.0, -90.0])
    func fittingPointsBeyondTheMapsEdge(latitude: Double) throws {
        var bounds = WorldBounds()
        bounds.include(Coordinate(longitude: 10, latitude: latitude))
        bounds.include(Coordinate(longitude: 10.001, latitude: latitude))
        let camera = try MapCamera.fitting(bounds, width: 300, height: 200, padding: EdgePadding(all: 10))
        let point = camera.point(for: Coordinate(longitude: 10, latitude: latitude))
        #expect(abs(point.y - (latitude > 0 ? 10 : 190)) < 1e-6)
        #expect(abs(WebMercator.maximumLatitude - 85.0511287798066) < 1e-12)
    }

    @Test func gridCellsAreTheTilesABoxTouches() {
        var box = WorldBounds()
        box.include(x: -0.1, y: 0.3)
        box.include(x: 0.55, y: 1.2)
        // At zoom 2: columns −1…2 (−1 the western copy's last), rows 1…3 (held to the world).
        #expect(box.gridCells(count: 4).map { [$0.columns, $0.rows] } == [-1...2, 1...3])
        // An inset keeps a box that ends on a tile edge out of the next tile.
        var exact = WorldBounds()
        exact.include(x: 0.25, y: 0.25)
        exact.include(x: 0.5, y: 0.5)
        #expect(exact.gridCells(count: 4).map { [$0.columns, $0.rows] } == [1...2, 1...2])
        #expect(exact.gridCells(count: 4, inset: 1e-9).map { [$0.columns, $0.rows] } == [1...1, 1...1])
        // Wholly north of the world, and empty: no cells.
        var north = WorldBounds()
        north.include(x: 0.2, y: -0.5)
        north.include(x: 0.4, y: -0.1)
        #expect(north.gridCells(count: 4) == nil)
        #expect(WorldBounds().gridCells(count: 4) == nil)
    }

    /// 1e308° was turned one way to fit the box and another (1e308 mod 360) to draw it: an empty map.
    @Test func aHugeBearingFitsAsItsAngleModulo360() throws {
        var bounds = WorldBounds()
        bounds.include(Coordinate(longitude: 13.3, latitude: 52.45))
        bounds.include(Coordinate(longitude: 13.5, latitude: 52.55))
        let huge = try MapCamera.fitting(bounds, width: 800, height: 600, bearing: 1e308)
        let same = try MapCamera.fitting(
            bounds, width: 800, height: 600, bearing: 1e308.truncatingRemainder(dividingBy: 360))
        #expect(huge.bearing == same.bearing && huge.zoom == same.zoom && huge.center == same.center)
        #expect(throws: CameraError.self) { try MapCamera.fitting(bounds, width: 800, height: 600, bearing: .infinity) }
    }

    /// A pitched fit of data around the antimeridian is the fit of the same data half a world away, turned by 180°
    /// of longitude: a centre that moved east of 180° came back near x = 0 while the data stayed past x = 1, and the
    /// fit, seeing the data a world away, zoomed out (Fiji's airports at 5.80 instead of 6.75).
    @Test func aPitchedFitAcrossTheAntimeridianIsTheFitElsewhere() throws {
        for middle in [179.0, 179.6, 180.0, 180.4, 181.0] {
            let across = WorldBounds(west: middle - 5, south: -21, east: middle + 4 - 360, north: -13)
            let elsewhere = WorldBounds(west: middle - 5 - 180, south: -21, east: middle + 4 - 180, north: -13)
            let fits = try [across, elsewhere].map {
                try MapCamera.fitting(
                    $0, width: 800, height: 600, padding: EdgePadding(all: 40), pitch: 60, maxZoom: 17)
            }
            #expect(abs(fits[0].zoom - fits[1].zoom) < 1e-6, "\(middle): \(fits[0].zoom) against \(fits[1].zoom)")
            let turned = (fits[0].center.longitude - fits[1].center.longitude + 360).truncatingRemainder(
                dividingBy: 360)
            #expect(abs(turned - 180) < 1e-6 && abs(fits[0].center.latitude - fits[1].center.latitude) < 1e-9)
        }
    }

    /// A flat fit shows no more beyond the Mercator world's south or north edge than its padding: the South Pole,
    /// which Web Mercator puts on the south edge, stands 40 points above the map's bottom, not in its middle over a
    /// band of nothing; Antarctica's stations fill the map down to the padding below the edge.
    @Test func aFlatFitStaysInsideTheWorld() throws {
        let pole = WorldBounds.enclosing([Coordinate(longitude: 0, latitude: -90)])
        let camera = try MapCamera.fitting(pole, width: 400, height: 300, padding: EdgePadding(all: 40))
        #expect(camera.zoom == 17)
        #expect(abs(camera.point(for: Coordinate(longitude: 0, latitude: -90)).y - 260) < 1e-6)
        let stations = WorldBounds.enclosing([
            Coordinate(longitude: 166.67, latitude: -77.85), Coordinate(longitude: 0, latitude: -90),
            Coordinate(longitude: -68.13, latitude: -67.57), Coordinate(longitude: 110.53, latitude: -66.28),
        ])
        let south = try MapCamera.fitting(stations, width: 800, height: 600, padding: EdgePadding(all: 40))
        #expect(abs(south.point(worldX: south.centerWorld.x, worldY: 1).y - 560) < 1e-6)
        // Data away from the edges is centred in the padded area as before.
        let fiji = try MapCamera.fitting(
            WorldBounds(west: 177, south: -19, east: -178, north: -16), width: 800, height: 600,
            padding: EdgePadding(all: 40))
        #expect(abs(fiji.centerWorld.y - WebMercator.y(latitude: -17.5)) < 1e-6 || fiji.zoom < 17)
    }

    @Test func fittingWithPaddingAndBearing() throws {
        var bounds = WorldBounds()
        bounds.include(Coordinate(longitude: 13.3, latitude: 52.45))
        bounds.include(Coordinate(longitude: 13.5, latitude: 52.55))
        let padding = EdgePadding(top: 10, left: 100, bottom: 30, right: 20)
        let camera = try MapCamera.fitting(bounds, width: 800, height: 600, padding: padding)
        let corners = [(13.3, 52.45), (13.5, 52.55), (13.3, 52.55), (13.5, 52.45)].map {
            camera.point(for: Coordinate(longitude: $0.0, latitude: $0.1))
        }
        let minX = corners.map(\.x).min() ?? 0, maxX = corners.map(\.x).max() ?? 0
        let minY = corners.map(\.y).min() ?? 0, maxY = corners.map(\.y).max() ?? 0
        #expect(minX >= 100 - 1e-6 && maxX <= 780 + 1e-6 && minY >= 10 - 1e-6 && maxY <= 570 + 1e-6)
        // Longitude binds (0.2° against 0.1° of latitude at 52.5°N): the box touches both padded side edges and is
        // centred between the top and bottom padding.
        #expect(abs(minX - 100) < 1e-6 && abs(maxX - 780) < 1e-6)
        #expect(abs((minY + maxY) / 2 - 290) < 1e-6)

        let turned = try MapCamera.fitting(bounds, width: 800, height: 600, padding: EdgePadding(all: 20), bearing: 45)
        for corner in [(13.3, 52.45), (13.5, 52.55), (13.3, 52.55), (13.5, 52.45)] {
            let point = turned.point(for: Coordinate(longitude: corner.0, latitude: corner.1))
            #expect(point.x >= 20 - 1e-6 && point.x <= 780 + 1e-6 && point.y >= 20 - 1e-6 && point.y <= 580 + 1e-6)
        }
    }

    /// Data round the whole world, on a map short enough for its width to decide: the world is as wide as the map
    /// (each place once), not as wide as the padded area (the map's edges showing the other side again). Where the
    /// height decides, or the map is turned, the fit is the box's.
    @Test func dataRoundTheWorldIsShownOnce() throws {
        var bounds = WorldBounds()
        bounds.include(Coordinate(longitude: -179, latitude: -20))
        bounds.include(Coordinate(longitude: 179, latitude: 20))
        let camera = try MapCamera.fitting(bounds, width: 800, height: 200, padding: EdgePadding(all: 40))
        #expect(abs(camera.worldSize - 800) < 1e-9)
        #expect(abs(camera.center.longitude) < 1e-9 && abs(camera.center.latitude) < 1e-9)
        // Tall data: the height decides, and the world is narrower than the map.
        var tall = bounds
        tall.include(Coordinate(longitude: 0, latitude: 70))
        tall.include(Coordinate(longitude: 0, latitude: -70))
        let short = try MapCamera.fitting(tall, width: 800, height: 400, padding: EdgePadding(all: 40))
        #expect(abs(short.worldSize * (tall.maxY - tall.minY) - 320) < 1e-6)
        #expect(short.worldSize < 800)
        // Turned, the box's own fit: the padded width over the turned box's span.
        let turned = try MapCamera.fitting(bounds, width: 800, height: 400, padding: EdgePadding(all: 40), bearing: 90)
        #expect(abs(turned.worldSize * (bounds.maxX - bounds.minX) - 320) < 1e-6)
        // With the seam's reach, the world is that much narrower than the map.
        let reached = try MapCamera.fitting(
            bounds, width: 800, height: 200, padding: EdgePadding(all: 40), seamReach: 56)
        #expect(abs(reached.worldSize - 744) < 1e-9)
        // 180° and −180° are one meridian: points on both are one place, not the whole world.
        let edge = WorldBounds.enclosing([
            Coordinate(longitude: 180, latitude: 48.1), Coordinate(longitude: -180, latitude: 48.1),
        ])
        #expect(edge.minX == 0 && edge.maxX == 0)
        #expect(try MapCamera.fitting(edge, width: 800, height: 600, padding: EdgePadding(all: 40)).zoom == 17)
    }

    @Test func singlePointTakesTheMaximumZoom() throws {
        var bounds = WorldBounds()
        bounds.include(Coordinate(longitude: 2.35, latitude: 48.85))
        let camera = try MapCamera.fitting(bounds, width: 300, height: 200, padding: EdgePadding(all: 20), maxZoom: 15)
        #expect(camera.zoom == 15)
        #expect(abs(camera.center.longitude - 2.35) < 1e-9 && abs(camera.center.latitude - 48.85) < 1e-9)
    }

    @Test func badValuesAreNamed() {
        #expect(throws: CameraError("zoom 23 is out of range; expected 0…22")) {
            try MapCamera(center: Coordinate(longitude: 0, latitude: 0), zoom: 23, width: 10, height: 10)
        }
        #expect(throws: CameraError("centre latitude 89.0 is out of range; expected -85.05…85.05 (Web Mercator)")) {
            try MapCamera(center: Coordinate(longitude: 0, latitude: 89), zoom: 2, width: 10, height: 10)
        }
        #expect(throws: CameraError("padding leaves no room on a 100×100 map")) {
            try MapCamera.fitting(WorldBounds(), width: 100, height: 100, padding: EdgePadding(all: 50))
        }
    }

    @Test func metresPerPointAndDistance() throws {
        let camera = try MapCamera(center: Coordinate(longitude: 0, latitude: 60), zoom: 0, width: 256, height: 256)
        #expect(abs(camera.metersPerPoint - 40_075_016.686 / 2 / 256) < 1e-6)
        let paris = Coordinate(longitude: 2.3522, latitude: 48.8566),
            london = Coordinate(longitude: -0.1276, latitude: 51.5072)
        #expect(abs(paris.distance(to: london) - 343_923) < 1_000)
    }
}

/// Encoded polylines as routing services write them.
@Suite struct PolylineTests {
    @Test func decodesGooglesExample() throws {
        let points = try Polyline.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@")
        #expect(
            points == [
                Coordinate(longitude: -120.2, latitude: 38.5), Coordinate(longitude: -120.95, latitude: 40.7),
                Coordinate(longitude: -126.453, latitude: 43.252),
            ])
        #expect(Polyline.encode(points) == "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
    }

    @Test func precisionSixRoundTrips() throws {
        let route = [
            Coordinate(longitude: 13.388860, latitude: 52.517037),
            Coordinate(longitude: 13.397634, latitude: 52.529407),
        ]
        let encoded = Polyline.encode(route, precision: 6)
        let decoded = try Polyline.decode(encoded, precision: 6)
        #expect(
            zip(decoded, route).allSatisfy {
                abs($0.longitude - $1.longitude) < 1e-9 && abs($0.latitude - $1.latitude) < 1e-9
            })
        // Read at the wrong precision, the same text lands outside the world.
        #expect(throws: PolylineError("point 1 (525.17037, 133.8886) is outside the world; is the precision right?")) {
            try Polyline.decode(encoded, precision: 5)
        }
    }

    @Test func badTextIsNamed() {
        #expect(throws: PolylineError("character 3 is not part of an encoded polyline (expected ASCII 63…126)")) {
            try Polyline.decode("_p iF")
        }
        #expect(throws: PolylineError("the polyline ends inside a value at character 3")) { try Polyline.decode("_p") }
    }
}
