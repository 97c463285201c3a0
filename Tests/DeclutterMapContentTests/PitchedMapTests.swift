import Foundation
import Testing

@testable import DeclutterClustering
@testable import DeclutterGeometry
@testable import DeclutterInput
@testable import DeclutterMapContent
@testable import DeclutterPlacement
@testable import DeclutterStyle
@testable import DeclutterSupport

/// Markers on a pitched map: upright and of their size at their projected points, placed on screen with near views
/// winning ties, clusters covering more ground far away, and points behind the camera hidden.
@Suite struct PitchedMapTests {
    let style: MarkerStyle
    let read: PointReader.Result

    init() throws { (style, read) = try tandmSample() }

    /// The TANDm map tilted back by `pitch`.
    func tandmCamera(pitch: Double, bearing: Double = 0) throws -> MapCamera {
        let flat = try MapCamera.fitting(
            try #require(read.region), width: 390, height: 600, bearing: bearing, maxZoom: 22)
        return try MapCamera(
            center: flat.center, zoom: flat.zoom, bearing: bearing, pitch: pitch, width: 390, height: 600)
    }

    @Test func viewsStandUprightAtTheirProjectedPoints() throws {
        for (pitch, bearing) in [(45.0, 0.0), (60, 30)] {
            let camera = try tandmCamera(pitch: pitch, bearing: bearing)
            let map = try MapAnnotator(points: read.points, style: style).annotate(camera)
            #expect(map.annotations.flatMap(\.members).sorted() == Array(0..<65))
            #expect(map.pointsInView == 65)
            let shown = map.annotations.filter(\.visible)
            for annotation in map.annotations {
                // Balloons keep their 30×40 size with the tip on the projected point; clusters their 40×40 size, 10
                // above it.
                let point = camera.point(for: annotation.coordinate)
                if annotation.kind == .cluster {
                    #expect(annotation.frame.width == 40 && annotation.frame.height == 40)
                    #expect(
                        abs(annotation.frame.x + 20 - point.x) < 1e-6
                            && abs(annotation.frame.y + 20 - (point.y - 10)) < 1e-6)
                } else {
                    #expect(annotation.frame.width == 30 && annotation.frame.height == 40)
                    #expect(
                        abs(annotation.frame.x + 15 - point.x) < 1e-6 && abs(annotation.frame.y + 40 - point.y) < 1e-6)
                }
            }
            // No two shown balloons overlap and no two shown clusters come closer than their diameter.
            for (index, a) in shown.enumerated() {
                for b in shown[(index + 1)...] where a.kind == b.kind {
                    if a.kind == .cluster {
                        #expect(hypot(a.frame.x - b.frame.x, a.frame.y - b.frame.y) >= 40 - 1e-9)
                    } else {
                        let overlapX = min(a.frame.x + 30, b.frame.x + 30) - max(a.frame.x, b.frame.x)
                        let overlapY = min(a.frame.y + 40, b.frame.y + 40) - max(a.frame.y, b.frame.y)
                        #expect(overlapX <= 1e-9 || overlapY <= 1e-9)
                    }
                }
            }
            let counts = (shown.filter { $0.kind == .cluster }.count, shown.filter { $0.kind == .marker }.count)
            // Tilting shrinks the far half of the data on screen, so it shows in fewer views than the flat map's 22
            // (12 clusters and 10 balloons).
            #expect(pitch == 45 ? counts == (12, 4) : counts == (8, 2))
        }
    }

    @Test func farClustersCoverMoreGroundThanNearOnes() throws {
        // Points evenly spread over all the ground a 60° map shows, all of one clustering identifier.
        let camera = try MapCamera(
            center: Coordinate(longitude: 10, latitude: 50), zoom: 9, pitch: 60, width: 800, height: 600)
        let bounds = camera.visibleWorldBounds
        var points: [ClusterPoint] = []
        for row in 0..<150 {
            for column in 0..<150 {
                let x = bounds.minX + (Double(column) + 0.5) / 150 * (bounds.maxX - bounds.minX)
                let y = bounds.minY + (Double(row) + 0.5) / 150 * (bounds.maxY - bounds.minY)
                points.append(
                    ClusterPoint(
                        longitude: WebMercator.longitude(x: x), latitude: WebMercator.latitude(y: y),
                        category: "unicycle"))
            }
        }
        let map = try MapAnnotator(points: points, style: style).annotate(camera)
        let clusters = map.annotations.filter { $0.visible && $0.kind == .cluster }
        // Points per shown cluster in the top and bottom bands of the map: the ground at the top row is 0.42 of the
        // centre's scale, at the bottom 1.58, so a cluster's 40-point disc holds (1.58 / 0.42)² ≈ 14 times the ground.
        func meanCount(_ band: ClosedRange<Double>) -> Double {
            let inBand = clusters.filter { band.contains($0.frame.y + 30) }
            return Double(inBand.reduce(0) { $0 + $1.members.count }) / Double(max(inBand.count, 1))
        }
        let top = meanCount(0...150), bottom = meanCount(450...600)
        #expect(top > 6 * bottom)
        #expect((Int(top), Int(bottom)) == (216, 11))
        // Every point on the map is in exactly one annotation, shown or not.
        #expect(map.annotations.flatMap(\.members).sorted() == Array(0..<points.count))
    }

    @Test func layoutJSONOfAPitchedMap() throws {
        // Zoom 1 (a world 512 points wide), 256×256, pitch 60: the camera is 384 points from the centre. 45° E 30° S
        // is 64 points east and 44.761 south of the centre on the flat map, at depth 384 − 44.761·sin 60° = 345.235,
        // so it grows by 1.11228: 128 + 64·1.11228 = 199.186 across and 128 + 44.761·cos 60°·1.11228 = 152.894 down,
        // the balloon's tip there (its frame 15 left and 40 up). The centre stays where it is.
        let points = [
            ClusterPoint(longitude: 0, latitude: 0, id: .string("a"), category: "bicycle"),
            ClusterPoint(longitude: 45, latitude: -30, category: "unicycle"),
        ]
        let camera = try MapCamera(
            center: Coordinate(longitude: 0, latitude: 0), zoom: 1, pitch: 60, width: 256, height: 256)
        let map = try MapAnnotator(points: points, style: style).annotate(camera)
        let json = MapLayout.json(camera: camera, map: map, points: points).jsonText
        #expect(
            json
                == #"{"width":256,"height":256,"zoom":1,"pitch":60,"center":[0,0],"points":{"total":2,"inView":2,"hiddenInView":0},"#
                + #""annotations":[{"id":"marker-1","kind":"marker","members":[1],"frame":[184.186,112.894,30,40],"coordinate":[45,-30],"visible":true},"#
                + #"{"id":"marker-a","kind":"marker","members":["a"],"frame":[113,88,30,40],"coordinate":[0,0],"visible":true}]}"#
        )
    }

    @Test func pointsBehindTheCameraOrBeyondTheMapAreHidden() throws {
        // Zoom 5 (8192 points a world), 800×600 at 60°: the camera stands 900 points from the centre, so flat rows
        // more than (900 − 12) / sin 60° = 1025 points below the centre row are behind its near plane. 60° S lies
        // 1717 points south of the equator: behind the camera. 60° N lies 1717 north, beyond the top edge (1420).
        let points = [
            ClusterPoint(longitude: 0, latitude: 0, category: "bicycle"),
            ClusterPoint(longitude: 0, latitude: 60, category: "bicycle"),
            ClusterPoint(longitude: 0, latitude: -60, category: "bicycle"),
            ClusterPoint(longitude: 0.001, latitude: -60, category: "bicycle"),
        ]
        let camera = try MapCamera(
            center: Coordinate(longitude: 0, latitude: 0), zoom: 5, pitch: 60, width: 800, height: 600)
        #expect((WebMercator.y(latitude: -60) - 0.5) * camera.worldSize > camera.perspective.nearFlatY - 300)
        let map = try MapAnnotator(points: points, style: style).annotate(camera)
        #expect(map.pointsInView == 1 && map.hiddenPointsInView == 0)
        #expect(map.annotations.flatMap(\.members).sorted() == [0, 1, 2, 3])
        #expect(map.annotations.filter(\.visible).map(\.members) == [[0]])
        let behind = try #require(map.annotations.first { $0.members == [2, 3] })
        #expect(!behind.visible && behind.frame.x.isFinite && behind.frame.y.isFinite)
        #expect(abs(behind.coordinate.longitude - 0.0005) < 1e-9 && abs(behind.coordinate.latitude - -60) < 1e-9)
        let north = try #require(map.annotations.first { $0.members == [1] })
        #expect(!north.visible && north.frame.y + 40 < 0)
        // The legend's count agrees.
        #expect(try MapAnnotator(points: points, style: style).pointsOnMap(camera).categoryCounts.reduce(0, +) == 1)
    }

    @Test func theWorldRepeatsOnAPitchedMapsFarRows() throws {
        // Zoom 1: the top row of an 800×600 map at 60° shows 800 / 0.42 = 1893 flat points, over three worlds of 512.
        let points = [-150.0, -60, 30, 120].map { ClusterPoint(longitude: $0, latitude: 60, category: "unicycle") }
        let camera = try MapCamera(
            center: Coordinate(longitude: 0, latitude: 0), zoom: 1, pitch: 60, width: 800, height: 600)
        let map = try MapAnnotator(points: points, style: style).annotate(camera)
        let projection = camera.projection
        var copies = 0
        for annotation in map.annotations where annotation.kind == .marker {
            let worldX = WebMercator.x(longitude: annotation.coordinate.longitude), worldY = WebMercator.y(latitude: 60)
            // Every copy is the point one or more whole worlds away, projected: not a fixed step on screen.
            for copy in annotation.copies + [(annotation.frame.x, annotation.frame.y)] {
                let matches = (-3...3).contains { k in
                    let point = projection.point(worldX: worldX + Double(k), worldY: worldY)
                    return abs(point.x - 15 - copy.x) < 1e-6 && abs(point.y - 40 - copy.y) < 1e-6
                }
                #expect(matches)
            }
            copies += annotation.copies.count
        }
        #expect(copies > 0)
        #expect(map.annotations.flatMap(\.members).sorted() == [0, 1, 2, 3])
    }

    @Test func tiesGoToTheViewNearerTheCamera() {
        // Two balloons of one priority overlap; the upper one is nearer the centre (300, 300), the lower one nearer
        // the camera of a pitched map.
        let views = [
            PlacementView(x: 300, y: 310, width: 30, height: 40, offsetY: -20, displayPriority: .defaultHigh),
            PlacementView(x: 310, y: 340, width: 30, height: 40, offsetY: -20, displayPriority: .defaultHigh),
        ]
        #expect(PlacementEngine.place(views, width: 600, height: 600).visible == [true, false])
        #expect(PlacementEngine.place(views, width: 600, height: 600, nearerFirst: true).visible == [false, true])
    }
}
