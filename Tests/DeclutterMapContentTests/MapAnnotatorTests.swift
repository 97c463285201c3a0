import DeclutterClustering
import DeclutterGeometry
import DeclutterInput
import DeclutterMapContent
import DeclutterPlacement
import DeclutterStyle
import DeclutterSupport
import DeclutterTestSupport
import Foundation
import Testing

/// Points to views on a map: clustering at the camera's zoom, placement, and the layout that accounts for every point.
@Suite struct MapAnnotatorTests {
    let style: MarkerStyle
    let read: PointReader.Result

    init() throws { (style, read) = try tandmSample() }

    func tandmCamera(bearing: Double = 0) throws -> MapCamera {
        let region = try #require(read.region)
        return try MapCamera.fitting(region, width: 390, height: 600, bearing: bearing, maxZoom: 22)
    }

    @Test func plistCarriesItsRegion() throws {
        let region = try #require(read.region)
        #expect(abs(WebMercator.longitude(x: (region.minX + region.maxX) / 2) - -122.413632917219) < 1e-9)
        #expect(read.points.count == 65)
    }

    @Test func tandmMapAccountsForEveryPoint() throws {
        let annotator = try MapAnnotator(points: read.points, style: style)
        let annotations = try annotator.annotations(for: tandmCamera())
        let members = annotations.flatMap(\.members).sorted()
        #expect(members == Array(0..<65))
        let shown = annotations.filter(\.visible)
        #expect(shown.filter { $0.kind == .cluster }.count == 12)
        #expect(shown.filter { $0.kind == .marker }.count == 10)
        for annotation in annotations {
            // Counts agree with members, and unicycles never share a cluster with the others (TANDm's identifiers).
            #expect(annotation.categoryCounts.reduce(0, +) == annotation.members.count)
            let names = Set(annotation.members.map { read.points[$0].category ?? "" })
            #expect(!(names.contains("unicycle") && names.count > 1))
            let expectedPriority: DisplayPriority = names == ["unicycle"] ? .defaultLow : .defaultHigh
            #expect(annotation.priority == expectedPriority)
            // Cluster views sit 10 points above their point; balloons have their tip on it.
            let point = try tandmCamera().point(for: annotation.coordinate)
            if annotation.kind == .cluster {
                #expect(
                    abs(annotation.frame.x + 20 - point.x) < 1e-6
                        && abs(annotation.frame.y + 20 - (point.y - 10)) < 1e-6)
            } else {
                #expect(abs(annotation.frame.x + 15 - point.x) < 1e-6 && abs(annotation.frame.y + 40 - point.y) < 1e-6)
            }
        }
        // Drawn lowest priority first.
        #expect(annotations.map(\.priority) == annotations.map(\.priority).sorted())
    }

    @Test func anIndexBuiltDownToTheMapsZoomGivesTheSameViews() throws {
        let camera = try tandmCamera()
        let zoom = Int(camera.zoom.rounded(.down))
        let full = try MapAnnotator(points: read.points, style: style).annotations(for: camera)
        let partial = try MapAnnotator(points: read.points, style: style, minimumZoom: zoom).annotations(for: camera)
        #expect(full.count == 22 + full.filter { !$0.visible }.count)
        #expect(partial == full)
        // A camera further out than the index reaches is refused, not answered from the wrong level.
        let wider = try MapCamera(center: camera.center, zoom: Double(zoom) - 1, width: 390, height: 600)
        #expect(
            throws: AnnotationError(
                "zoom \(zoom - 1) is below the index's lowest zoom \(zoom); build the annotator with minimumZoom at most \(zoom - 1)"
            )
        ) {
            try MapAnnotator(points: read.points, style: style, minimumZoom: zoom).annotations(for: wider)
        }
    }

    @Test func shownViewsDoNotCollide() throws {
        let annotations = try MapAnnotator(points: read.points, style: style).annotations(for: tandmCamera(bearing: 30))
            .filter(\.visible)
        for (index, a) in annotations.enumerated() {
            for b in annotations[(index + 1)...] {
                let overlapX = min(a.frame.x + a.frame.width, b.frame.x + b.frame.width) - max(a.frame.x, b.frame.x)
                let overlapY = min(a.frame.y + a.frame.height, b.frame.y + b.frame.height) - max(a.frame.y, b.frame.y)
                if a.kind == .cluster && b.kind == .cluster {
                    let dx = a.frame.x - b.frame.x, dy = a.frame.y - b.frame.y
                    #expect((dx * dx + dy * dy).squareRoot() >= 40 - 1e-9)
                } else if a.kind == .marker && b.kind == .marker {
                    #expect(overlapX <= 1e-9 || overlapY <= 1e-9)
                }
            }
        }
    }

    @Test func theWorldRepeatsWithItsMarkers() throws {
        // At zoom 1 the world is 512 points wide, so an 800-point map shows parts of it twice.
        let points = [
            ClusterPoint(longitude: -150, latitude: 20, category: "bicycle"),
            ClusterPoint(longitude: 10, latitude: 50, category: "bicycle"),
            ClusterPoint(longitude: 120, latitude: -10, category: "unicycle"),
        ]
        let camera = try MapCamera(center: Coordinate(longitude: 0, latitude: 0), zoom: 1, width: 800, height: 600)
        let map = try MapAnnotator(points: points, style: style).annotate(camera)
        #expect(map.pointsInView == 3 && map.hiddenPointsInView == 0)
        for annotation in map.annotations {
            let point = camera.point(for: annotation.coordinate)
            // The frame is the copy nearest the centre; the others lie whole worlds east or west, where they are on the
            // map.
            #expect(abs(annotation.frame.x + 15 - point.x) < 1e-9)
            for copy in annotation.copies {
                let worlds = (copy.x - annotation.frame.x) / 512
                #expect(abs(worlds - worlds.rounded()) < 1e-9 && worlds.rounded() != 0 && copy.y == annotation.frame.y)
                #expect(copy.x < 800 && copy.x + 30 > 0)
            }
        }
        // -150° is at x = 400 - 213.3 = 186.7 and again at 698.7; 120° at 570.7 and again at 58.7; 10° only once.
        #expect(map.annotations.map(\.copies.count).sorted() == [0, 1, 1])
        let json = MapLayout.json(camera: camera, map: map, points: points).jsonText
        #expect(
            json.contains(#""copies":[[683.667,"#)
                && json.contains(#""points":{"total":3,"inView":3,"hiddenInView":0}"#))
    }

    @Test func markersCrossTheAntimeridian() throws {
        // A map centred on 179° E shows 179° W a little to the right of its centre, not a world away.
        let points = [
            ClusterPoint(longitude: -179, latitude: 0, category: "bicycle"),
            ClusterPoint(longitude: 178, latitude: 0, category: "bicycle"),
        ]
        let camera = try MapCamera(center: Coordinate(longitude: 179, latitude: 0), zoom: 5, width: 600, height: 400)
        let map = try MapAnnotator(points: points, style: style).annotate(camera)
        let east = try #require(map.annotations.first { $0.members == [0] })
        #expect(abs(east.frame.x + 15 - (300 + 2.0 / 360 * 256 * 32)) < 1e-6 && east.visible)
        #expect(east.coordinate.longitude == -179)
        #expect(map.pointsInView == 2)
        // Fitting Fiji, Samoa and Tonga takes the short way across the Pacific, not the long way round the world.
        let pacific = [
            Coordinate(longitude: 178.4419, latitude: -18.1416), Coordinate(longitude: -171.75, latitude: -13.8333),
            Coordinate(longitude: -175.2049, latitude: -21.1393),
        ]
        let bounds = WorldBounds.enclosing(pacific)
        #expect(bounds.minX < 1 && bounds.maxX > 1)
        let fitted = try MapCamera.fitting(bounds, width: 800, height: 600, padding: EdgePadding(all: 40))
        #expect(fitted.zoom >= 3)
        #expect(abs(fitted.center.longitude - (178.4419 + 188.25) / 2 + 360) < 1e-6)
        // Points that do not straddle it keep the plain box.
        let plain = [Coordinate(longitude: -10, latitude: 0), Coordinate(longitude: 20, latitude: 5)]
        var expected = WorldBounds()
        plain.forEach { expected.include($0) }
        #expect(WorldBounds.enclosing(plain) == expected)
        // Points round most of the world keep the plain box unless crossing saves a quarter of the world: cities from
        // 170°W to 175°E, 40° apart at most (−50°…−10°, the Atlantic), stay a world map the usual way round (345° wide
        // against 320°); Asia to the Americas' west coast (100°E…120°W), crossing saves 220°.
        let world = [-170.0, -120, -80, -50, -10, 30, 60, 100, 140, 175].map { Coordinate(longitude: $0, latitude: 10) }
        #expect(
            WorldBounds.enclosing(world).minX == WebMercator.x(longitude: -170)
                && WorldBounds.enclosing(world).maxX == WebMercator.x(longitude: 175))
        let rim = [100.0, 140, 175, -150, -120].map { Coordinate(longitude: $0, latitude: 30) }
        #expect(abs(WorldBounds.enclosing(rim).minX - WebMercator.x(longitude: 100)) < 1e-12)
        #expect(abs(WorldBounds.enclosing(rim).maxX - (WebMercator.x(longitude: -120) + 1)) < 1e-12)
    }

    @Test func unknownCategoryIsNamed() {
        var points = read.points
        points[3].category = "skateboard"
        #expect(
            throws: AnnotationError(
                "point 3: category \"skateboard\" is not in style \"TANDm\"; expected one of: tricycle, bicycle, unicycle"
            )
        ) {
            try MapAnnotator(points: points, style: style)
        }
    }

    @Test func layoutJSON() throws {
        let points = [
            ClusterPoint(longitude: 0, latitude: 0, id: .string("a"), category: "bicycle"),
            ClusterPoint(longitude: 60, latitude: 0, category: "unicycle"),
        ]
        let camera = try MapCamera(center: Coordinate(longitude: 0, latitude: 0), zoom: 0, width: 256, height: 256)
        let map = try MapAnnotator(points: points, style: style).annotate(camera)
        let json = MapLayout.json(camera: camera, map: map, points: points).jsonText
        #expect(
            json
                == #"{"width":256,"height":256,"zoom":0,"center":[0,0],"points":{"total":2,"inView":2,"hiddenInView":0},"annotations":["#
                + #"{"id":"marker-1","kind":"marker","members":[1],"frame":[155.667,88,30,40],"coordinate":[60,0],"visible":true},"#
                + #"{"id":"marker-a","kind":"marker","members":["a"],"frame":[113,88,30,40],"coordinate":[0,0],"visible":true}]}"#
        )
    }
}

/// Lines and polygons from GeoJSON.
@Suite struct MapShapeTests {
    @Test func readsEveryGeometryKind() throws {
        let text =
            #"{"type":"FeatureCollection","features":["#
            + #"{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}},"#
            + #"{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]],[[0.2,0.2],[0.3,0.2],[0.3,0.3],[0.2,0.2]]]}},"#
            + #"{"type":"Feature","properties":{},"geometry":{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]],[[[5,5],[6,5],[6,6],[5,5]]]]}},"#
            + #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[3,3]}},"#
            + #"{"type":"Feature","properties":{},"geometry":null}]}"#
        let shapes = try MapShape.read(geoJSON: Data(text.utf8), file: "layer.geojson")
        #expect(shapes.map(\.kind) == [.line, .polygon, .polygon, .polygon])
        #expect(shapes.map(\.rings.count) == [1, 2, 1, 1])
        #expect(shapes[3].rings[0][1] == Coordinate(longitude: 6, latitude: 5))
    }

    @Test func badGeometryIsNamed() {
        let text =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0]]}}]}"#
        #expect(
            throws: InputError(
                file: "route.geojson", location: "features[0].geometry.coordinates",
                message: "expected an array of two or more of [longitude, latitude] positions")
        ) {
            try MapShape.read(geoJSON: Data(text.utf8), file: "route.geojson")
        }
        #expect(
            throws: InputError(file: "x.geojson", location: "geometry", message: "unknown geometry type \"Circle\"")
        ) {
            try MapShape.read(geoJSON: Data(#"{"type":"Circle"}"#.utf8), file: "x.geojson")
        }
    }

    /// A position out of range or not two numbers is named, with what was wrong: it was "expected an array of two or
    /// more", which the line was.
    @Test(arguments: [
        (
            #"{"type":"LineString","coordinates":[[170,10],[190,10]]}"#, "geometry.coordinates[1]",
            "longitude 190.0 is outside -180…180 (a line across the antimeridian is written with longitudes in range, "
                + "170 then -170, and drawn the shorter way)"
        ),
        (
            #"{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]],[[[5,5],[6,95],[6,6],[5,5]]]]}"#,
            "geometry.coordinates[1][0][1]", "latitude 95.0 is outside -90…90"
        ),
        (
            #"{"type":"MultiLineString","coordinates":[[[0,0],[1,1]],[[0,0],["1",1]]]}"#, "geometry.coordinates[1][1]",
            "expected a [longitude, latitude] position of two numbers"
        ),
    ])
    func badPositionIsNamed(text: String, location: String, message: String) {
        #expect(throws: InputError(file: "r.geojson", location: location, message: message)) {
            try MapShape.read(geoJSON: Data(text.utf8), file: "r.geojson")
        }
    }
}
