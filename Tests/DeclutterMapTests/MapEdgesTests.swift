import DeclutterClustering
import DeclutterGeometry
import DeclutterMap
import DeclutterMapContent
import DeclutterRender
import DeclutterStyle
import Foundation
import Testing

/// What a static map does at its edges: furniture that markers keep clear of, fitted maps whose views stand whole
/// inside the padding, world copies placed whole or not at all, points at 0°, 0°.
@Suite struct MapEdgesTests {
    /// 2,000 points spread over the world between 70° south and north, from a seeded generator.
    static func worldPoints(seed: UInt64) -> [ClusterPoint] {
        var seed = seed
        func next() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53)
        }
        return (0..<2000).map { _ in ClusterPoint(longitude: next() * 360 - 180, latitude: next() * 140 - 70) }
    }

    /// A 400×300 map at zoom 10 with no basemap, and points where `places` (map points) put them.
    func map(at places: [(x: Double, y: Double)]) throws -> (MapDescription, MapCamera) {
        let camera = try MapCamera(center: Coordinate(longitude: 10, latitude: 50), zoom: 10, width: 400, height: 300)
        var map = MapDescription(
            points: places.map { place in
                let coordinate = camera.coordinate(atX: place.x, y: place.y)
                return ClusterPoint(longitude: coordinate.longitude, latitude: coordinate.latitude)
            }, style: try bundledStyle("default"))
        map.framing = .centered(camera.center, zoom: camera.zoom)
        (map.width, map.height) = (400, 300)
        map.basemap = .none
        return (map, camera)
    }

    /// A balloon whose point is in the bottom-left corner would stand on the scale bar, and one in the bottom-right
    /// corner on the attribution: both are hidden and said to be, the balloon in the middle shows, the layout gives
    /// both frames, and the bar is drawn at its frame.
    @Test func markersKeepClearOfTheScaleBarAndTheAttribution() throws {
        var (map, _) = try map(at: [(30, 295), (200, 150), (380, 298)])
        map.furniture.scaleBar = true
        map.furniture.attribution = "© Declutter tests"
        let drawn = try map.draw(format: .png)
        #expect(drawn.annotations.filter(\.visible).map(\.members) == [[1]])
        #expect(drawn.pointsUnderFurniture.map(\.name) == ["scale bar", "attribution"])
        #expect(drawn.pointsUnderFurniture.map(\.points) == [1, 1])
        #expect(drawn.hiddenPointsNote == "2 of 3 points in view are under the scale bar and the attribution")
        let bar = try #require(drawn.furniture.scaleBar)
        #expect(bar.label == "5 km")
        #expect(bar.frame.x == 6 && bar.frame.y + bar.frame.height == 292)
        let attribution = try #require(drawn.furniture.attribution)
        #expect(attribution.text == "© Declutter tests")
        #expect(
            attribution.frame.x + attribution.frame.width == 400
                && attribution.frame.y + attribution.frame.height == 300)
        let layout = try #require(drawn.layout.object)
        #expect(layout["scaleBar"]?.object?["label"]?.string == "5 km")
        #expect(layout["attribution"]?.object?["frame"]?.array?.count == 4)
        // The bar's line runs 2 points above its frame's bottom, from 2 points in: dark on the pale background.
        let line = pixel(drawn.canvas, Int(bar.frame.x + 2 + bar.length / 2), Int(bar.frame.y + bar.frame.height - 2))
        let above = pixel(drawn.canvas, Int(bar.frame.x + 2 + bar.length / 2), Int(bar.frame.y) - 3)
        #expect(line[0] < 128 && above[0] > 200, "\(line) \(above)")
    }

    /// Points spread over a map fitted to them: every shown view (the balloons above their points, the clusters
    /// around theirs) stands whole inside the 40-point padding, where the plain fit put the northernmost point's
    /// balloon 2 points from the top edge.
    @Test func aFittedMapKeepsEveryViewInsideItsPadding() throws {
        let points = [(47.0, 5.0), (55.1, 8.6), (50.0, 15.0), (48.2, 11.6), (51.3, 6.9), (53.5, 10.0), (49.9, 8.3)]
            .map { ClusterPoint(longitude: $0.1, latitude: $0.0) }
        var map = MapDescription(points: points, style: try bundledStyle("default"))
        (map.width, map.height) = (400, 300)
        map.basemap = .none
        let plain = try map.camera()
        let drawn = try map.draw(format: .png)
        #expect(drawn.camera.zoom < plain.zoom)
        let shown = drawn.annotations.filter(\.visible)
        // Two of the seven are near enough to cluster.
        #expect(shown.map(\.members.count).sorted() == [1, 1, 1, 1, 1, 2])
        for annotation in shown {
            let frame = annotation.frame
            #expect(
                frame.x >= 40 - 0.01 && frame.y >= 40 - 0.01 && frame.x + frame.width <= 360.01
                    && frame.y + frame.height <= 260.01, "\(frame)")
        }
        // The northernmost balloon's top is the top edge of the padded area, give or take what the fit's passes leave.
        let top = shown.map(\.frame.y).min() ?? 0
        #expect(top >= 40 - 0.01 && top < 48, "\(top)")
    }

    /// A map too small for its padding and a balloon (64 pt, with render's thumbnail padding of a quarter of its
    /// shorter side) fitted to one point centred the point, and the balloon standing 38 pt above it lost its top;
    /// 160×45 lost 15.5 pt though the balloon fits the height. The views are centred on the map instead, whole.
    @Test(arguments: [(64.0, 64.0), (160.0, 45.0)])
    func aLoneBalloonOnAMapSmallerThanItsPaddingStandsWhole(width: Double, height: Double) throws {
        var map = MapDescription(
            points: [ClusterPoint(longitude: 2.35, latitude: 48.86)], style: try bundledStyle("default"))
        (map.width, map.height) = (width, height)
        map.framing = .data(padding: EdgePadding(all: min(width, height) / 4), maxZoom: 17)
        map.basemap = .none
        let drawn = try map.draw(format: .png)
        let shown = drawn.annotations.filter(\.visible)
        try #require(shown.count == 1)
        let frame = shown[0].frame
        #expect(frame.y >= 0 && frame.y + frame.height <= height, "\(frame)")
        #expect(
            abs(frame.x + frame.width / 2 - width / 2) < 0.01 && abs(frame.y + frame.height / 2 - height / 2) < 0.01)
    }

    /// Fiji's 23 airports, across the antimeridian, on a map smaller than its padding: at the fit's zoom Rotuma's
    /// balloon cannot stand whole beside the islands' cluster, so the map zooms out until they merge.
    @Test func viewsThatCannotShareATinyMapMergeFurtherOut() throws {
        let places = [
            (-179.342, -17.7433), (177.68092, -17.53506), (177.44299, -17.7554), (177.19701, -17.7779),
            (-179.489, -17.2542), (178.157, -19.0581), (177.09801, -17.6731), (179.951, -18.5667),
            (178.55901, -18.0433),
            (178.759, -17.7111), (179.34, -18.1156), (-179.66701, -16.7481), (-178.817, -18.1992), (179.34, -16.4667),
            (-179.877, -16.6906), (179.422, -17.3458), (177.071, -12.4825), (179.341, -16.8028), (179.017, -17.617),
            (-178.7, -20.65), (177.545, -16.7589), (-178.976, -17.269), (177.63901, -18.5125),
        ]
        var map = MapDescription(
            points: places.map { ClusterPoint(longitude: $0.0, latitude: $0.1) }, style: try bundledStyle("default"))
        (map.width, map.height) = (64, 64)
        // `render`'s padding for a thumbnail: a quarter of its side.
        map.framing = .data(padding: EdgePadding(all: 16), maxZoom: 17)
        map.basemap = .none
        let drawn = try map.draw(format: .png)
        let shown = drawn.annotations.filter(\.visible)
        #expect(shown.reduce(0) { $0 + $1.count } == 23)
        for view in shown {
            let frame = view.frame
            #expect(
                frame.x >= -0.01 && frame.y >= -0.01 && frame.x + frame.width <= 64.01
                    && frame.y + frame.height <= 64.01, "\(frame)")
        }
    }

    /// Points at exactly 0°, 0° are almost always missing values: a fitted map leaves them out and says so.
    @Test func pointsAtZeroZeroDoNotDragAFittedMap() throws {
        let cities = [(48.85, 2.35), (52.52, 13.40), (41.9, 12.5)].map { ClusterPoint(longitude: $0.1, latitude: $0.0) }
        var with = MapDescription(
            points: cities + Array(repeating: ClusterPoint(longitude: 0, latitude: 0), count: 3),
            style: try bundledStyle("default"))
        var without = MapDescription(points: cities, style: try bundledStyle("default"))
        with.basemap = .none
        without.basemap = .none
        #expect(with.pointsAtZeroZero == 3)
        let drawn = try with.draw(format: .png), plain = try without.draw(format: .png)
        #expect(drawn.camera == plain.camera)
        #expect(
            drawn.warnings.first
                == "3 points lie at exactly 0°, 0°, almost always a missing value rather than a place; the map is fitted to the other 3"
        )
        #expect(plain.warnings.isEmpty)
    }

    /// Points beyond Web Mercator's ±85.0511° (the South Pole's station, a latitude of 90) are drawn on the world's
    /// edge, and a map that shows them says so; points within the limit, or off the map, say nothing.
    @Test func pointsBeyondMercatorAreSaid() throws {
        let points = [(-90.0, 0.0), (89.9, 10.0), (85.05, 20.0), (48.85, 2.35)].map {
            ClusterPoint(longitude: $0.1, latitude: $0.0)
        }
        var map = MapDescription(points: points, style: try bundledStyle("default"))
        map.basemap = .none
        #expect(
            try map.draw(format: .png).warnings.first
                == "2 points on the map lie beyond 85.0511° north or south, where Web Mercator maps end; drawn on the world's top or bottom edge"
        )
        map.points = Array(points.suffix(2))
        #expect(try map.draw(format: .png).warnings.isEmpty)
        // A map of Paris does not show the poles: nothing to say.
        map.points = points
        map.framing = .centered(Coordinate(longitude: 2.35, latitude: 48.85), zoom: 5)
        #expect(try map.draw(format: .png).warnings.isEmpty)
    }

    /// 2,000 points spread over the world, fitted to a square map: a world as wide as the map would cut the views on
    /// its seam in two at both side edges (as it did), so the world is drawn narrower by the views' reach, and every
    /// view shows whole, at one side or the other.
    @Test func aWorldRoundFitCutsNoViewAtItsSeam() throws {
        let points = Self.worldPoints(seed: 7)
        var map = MapDescription(points: points, style: try bundledStyle("default"))
        (map.width, map.height) = (1024, 1024)
        map.basemap = .none
        let drawn = try map.draw(format: .png)
        #expect(drawn.camera.worldSize < 1024 && drawn.camera.worldSize > 1024 - 120, "\(drawn.camera.worldSize)")
        #expect(drawn.content.hiddenPointsInView == 0 && drawn.content.pointsInView == 2000)
        var shown = 0
        for annotation in drawn.annotations where annotation.visible {
            let frame = annotation.frame
            for x in [frame.x] + annotation.copies.map(\.x) {
                #expect(x >= 0 && x + frame.width <= 1024, "\(annotation.members.count) points at \(x)")
            }
            shown += 1
        }
        #expect(shown > 50)
        #expect(drawn.warnings.isEmpty)
    }

    /// A strip of a map that no zoom fits the data into says so, rather than passing zoom 0 off as a fit.
    @Test func dataTooLargeForThePaddedMapIsSaid() throws {
        let points = [(40.0, -5.0), (60.0, 25.0), (50.0, 10.0)].map { ClusterPoint(longitude: $0.1, latitude: $0.0) }
        var map = MapDescription(points: points, style: try bundledStyle("default"))
        (map.width, map.height) = (2000, 100)
        map.basemap = .none
        let drawn = try map.draw(format: .png)
        #expect(drawn.camera.zoom == 0)
        #expect(
            drawn.warnings.first
                == "the data does not fit inside the padding of this 2000×100 pt map at any zoom: at zoom 0, the lowest, "
                + "it spans 22×23 pt and the padding leaves 1920×20; a larger map or a smaller padding shows it")
        (map.width, map.height) = (2000, 300)
        #expect(try map.draw(format: .png).warnings.isEmpty)
    }

    /// A turned map too small for the world at zoom 0 says how many points it leaves off, as the summary counts them;
    /// north up, the data is measured against the padding instead.
    @Test func aTurnedMapTooSmallForItsDataSaysSo() throws {
        var map = MapDescription(points: Self.worldPoints(seed: 42), style: try bundledStyle("default"))
        (map.width, map.height) = (200, 150)
        map.basemap = .none
        map.bearing = 30
        let drawn = try map.draw(format: .png)
        let off = 2000 - drawn.content.pointsInView
        #expect(drawn.camera.zoom == 0 && off > 100)
        #expect(
            drawn.warnings.contains(
                "the data does not fit this 200×150 pt map at any zoom: at zoom 0, the lowest, \(off) of 2000 points "
                    + "lie off the map turned by 30°; a larger map, or one north up and flat, shows more"),
            "\(drawn.warnings)")
        map.bearing = 0
        let northUp = try map.draw(format: .png).warnings
        #expect(northUp.contains { $0.hasPrefix("the data does not fit inside the padding of this 200×150 pt map") })
        #expect(!northUp.contains { $0.contains("lie off the map") })
    }

    /// 2,000 points spread over the world on a map 1.6 worlds wide: a view near a side edge also shows a world away,
    /// and only whole copies are drawn; a view is cut at a side only where none of its copies would be whole.
    @Test func copiesAtTheSidesAreWholeOrLeftOut() throws {
        let points = Self.worldPoints(seed: 42)
        var map = MapDescription(points: points, style: try bundledStyle("default"))
        map.framing = .centered(Coordinate(longitude: 0, latitude: 20), zoom: 1.5)
        (map.width, map.height) = (1200, 600)
        map.basemap = .none
        let drawn = try map.draw(format: .png)
        let world = drawn.camera.worldSize
        var repeated = 0, cut = 0
        for annotation in drawn.annotations where annotation.visible {
            let frame = annotation.frame
            let corners = [frame.x] + annotation.copies.map(\.x)
            let whole = corners.map { $0 >= 0 && $0 + frame.width <= 1200 }
            if corners.count > 1 { repeated += 1 }
            if whole.contains(false) {
                cut += 1
                #expect(corners.count == 1, "\(corners)")
                // Its copies a world either way would not be whole either.
                #expect(
                    ![frame.x - world, frame.x + world].contains { $0 >= 0 && $0 + frame.width <= 1200 }, "\(frame)")
            }
        }
        #expect(repeated > 10)
        #expect(cut == 0)
    }
}
