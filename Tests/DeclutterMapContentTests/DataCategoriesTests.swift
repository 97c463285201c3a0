import DeclutterClustering
import DeclutterGeometry
import DeclutterMapContent
import DeclutterPlacement
import DeclutterStyle
import DeclutterSupport
import DeclutterTestSupport
import Foundation
import Testing

@Suite struct DataCategoriesTests {
    let defaultStyle: MarkerStyle
    let airports: MarkerStyle

    init() throws {
        defaultStyle = try MarkerStyle.load(contentsOf: stylesFolder.appendingPathComponent("default.json"))
        airports = try MarkerStyle.load(contentsOf: stylesFolder.appendingPathComponent("airports.json"))
    }

    /// Nine country codes against seven colours: six take a colour by frequency, three share the last (grey) as
    /// "other".
    @Test func mostFrequentValuesTakeThePaletteAndTheRestShareOther() throws {
        let counts = ["NO": 9, "SE": 8, "FI": 7, "DK": 6, "IS": 5, "EE": 4, "LV": 3, "LT": 2, "PL": 1]
        let values = counts.flatMap { Array(repeating: $0.key, count: $0.value) }.shuffled()
        let data = try #require(DataCategories(values: values, style: defaultStyle, property: "cc"))
        #expect(data.style.categories.map(\.name) == ["NO", "SE", "FI", "DK", "IS", "EE", "other"])
        #expect(data.style.categories.map(\.color) == defaultStyle.categories.map(\.color))
        #expect(Set(data.style.categories.map(\.clusteringIdentifier)) == ["cc values"])
        #expect(data.valuesInOther == 3)
        #expect(data.categoryOfValue["LT"] == "other")
        #expect(data.categoryOfValue["NO"] == "NO")
        var points = values.map { ClusterPoint(longitude: 10, latitude: 60, category: $0) }
        data.apply(to: &points)
        #expect(points.filter { $0.category == "other" }.count == 6)
    }

    /// Ties go by name, numbers in names as numbers; points without a value come after every value, however many.
    @Test func fewValuesKeepTheirOwnColoursAndTiesGoByName() throws {
        let data = try #require(
            DataCategories(values: ["b", "a", nil, "b", "a", "c", nil, nil], style: defaultStyle, property: "kind"))
        #expect(data.style.categories.map(\.name) == ["a", "b", "c", "(none)"])
        #expect(data.style.categories.map(\.color) == defaultStyle.categories.prefix(4).map(\.color))
        #expect(data.valuesInOther == 0)
        let numbered = try #require(
            DataCategories(values: ["k10", "k2", "k1", "k0"], style: defaultStyle, property: "kind"))
        #expect(numbered.style.categories.map(\.name) == ["k0", "k1", "k2", "k10"])
    }

    /// With more values than colours, points without a value share the other colour rather than take the first.
    @Test func pointsWithoutAValueYieldTheirColourToValues() throws {
        let values: [String?] = Array(repeating: nil, count: 50) + (0..<10).map { "v\($0)" }
        let data = try #require(DataCategories(values: values, style: defaultStyle, property: "kind"))
        #expect(data.style.categories.first?.name == "v0")
        #expect(data.categoryOfValue["(none)"] == "other")
    }

    /// A style with an "other" category gives it to the rest; values that are the style's categories change nothing.
    @Test func aStylesOwnOtherCategoryAndStyleValues() throws {
        let values = ["US", "US", "US", "CA", "CA", "MX", "BR", "AR", "CL", "PE"]
        let data = try #require(DataCategories(values: values, style: airports, property: "country"))
        #expect(data.style.categories.map(\.name) == ["US", "CA", "AR", "BR", "CL", "other"])
        #expect(data.style.categories.last?.color == airports.category(named: "other")?.color)
        #expect(data.valuesInOther == 2)
        #expect(DataCategories(values: ["europe", "asia", nil], style: airports, property: "region") == nil)
    }

    @Test func legendRowsFollowTheStyleAndSkipEmptyCategories() {
        let legend = MapLegend(title: "kind", style: defaultStyle, counts: [3, 0, 5, 0, 0, 0, 1])
        #expect(legend.rows.map(\.name) == ["blue", "green", "grey"])
        #expect(legend.rows.map(\.count) == [3, 5, 1])
        let frame = MapLegend.frame(size: (100, 50), corner: .bottomRight, width: 800, height: 600, margin: 8)
        #expect(frame == (692, 542, 100, 50))
    }

    /// A reserved area hides the views that collide with it, unless they are required.
    @Test func reservedAreasHideCollidingViews() {
        let views = [
            PlacementView(
                x: 50, y: 50, width: 20, height: 20, collisionMode: .rectangle, displayPriority: .defaultHigh,
                clusteringGroup: -1),
            PlacementView(
                x: 200, y: 50, width: 20, height: 20, collisionMode: .rectangle, displayPriority: .defaultHigh,
                clusteringGroup: -1),
            PlacementView(
                x: 60, y: 60, width: 20, height: 20, collisionMode: .rectangle, displayPriority: .required,
                clusteringGroup: -1),
        ]
        let placement = PlacementEngine.place(
            views, width: 400, height: 300, reserved: [.box(minX: 0, minY: 0, maxX: 100, maxY: 100)])
        #expect(placement.visible == [false, true, true])
    }

    /// Where the world repeats, a reserved area covers one copy of a view: the view shows by its other copies, and
    /// only a view every copy of which is covered is hidden. A legend hid Hawaii's cluster from all three worlds.
    @Test func aCoveredCopyIsLeftOutAndTheOthersShow() {
        let region = WorldRepeat(periodX: 300, periodY: 0, minX: 0, minY: 0, maxX: 800, maxY: 300)
        func view(x: Double, y: Double) -> PlacementView {
            PlacementView(
                x: x, y: y, width: 20, height: 20, collisionMode: .rectangle, displayPriority: .defaultHigh,
                clusteringGroup: -1)
        }
        // Copies at x 50 (under the legend), 350 and 650; at 120, 420 and 720; at 180 (under the other box), 480 and
        // 780.
        let views = [view(x: 50, y: 50), view(x: 120, y: 200), view(x: 480, y: 200)]
        let legend: CollisionGrid.Shape = .box(minX: 0, minY: 0, maxX: 100, maxY: 100)
        let placement = PlacementEngine.place(
            views, width: 800, height: 300, repeating: region,
            reserved: [legend, .box(minX: 160, minY: 160, maxX: 200, maxY: 240)])
        #expect(placement.visible == [true, true, true])
        #expect(placement.coveredCopies == [0: [0], 2: [-1]])
        // Covered in every copy: hidden.
        let covered = PlacementEngine.place(
            [view(x: 50, y: 50)], width: 800, height: 300, repeating: region,
            reserved: [.box(minX: 0, minY: 0, maxX: 800, maxY: 100)])
        #expect(covered.visible == [false])
        #expect(covered.coveredCopies.isEmpty)
    }
}

@Suite struct LegendPlacerTests {
    /// Points fill the top-left quarter or so: the other corners are empty, so they come first (top-right first among
    /// equals); the top-left group's best place slides down the left edge below the points (sooner than along the top
    /// edge past them). Then come more places that cover none, each at least half a box from the others, up to the
    /// placer's count, and the top-left corner itself last.
    @Test func placesGoWhereTheyCoverTheFewestPoints() {
        var density = PointDensity(width: 400, height: 300, cellSize: 8)
        for y in stride(from: 4.0, to: 150, by: 8) {
            for x in stride(from: 4.0, to: 200, by: 8) { density.add(x: x, y: y) }
        }
        density.finish()
        #expect(density.count(x: 0, y: 0, width: 400, height: 300) == 25 * 19)
        #expect(density.count(x: 0, y: 0, width: 8, height: 8) == 1)
        let placer = LegendPlacer(width: 400, height: 300, topRightSquare: 30)
        let places = placer.places(size: (100, 60), density: density, reach: 10)
        #expect(places.count == 13)
        // The top-left group's place slid down past the middle: it says the corner it is nearest, bottom-left.
        #expect(places.prefix(4).map(\.corner) == [.topRight, .bottomLeft, .bottomRight, .bottomLeft])
        // Top-right: below the compass square (8 + 30 + 8).
        #expect(places[0].frame == (292, 46, 100, 60))
        #expect(places[1].frame == (8, 214, 100, 60))
        #expect(places[2].frame == (292, 214, 100, 60))
        // Clear of the points and their reach: the last points lie at y = 148, in the 8-pt cell row 144…152, which a
        // box reaching up to y = 150 would touch; so the first step down the left edge to start 10 below that row.
        #expect(places[3].frame == (8, 168, 100, 60))
        for (index, place) in places.enumerated().dropFirst(4).dropLast() {
            #expect(density.count(x: place.frame.x - 10, y: place.frame.y - 10, width: 120, height: 80) == 0)
            #expect(
                places[..<index].allSatisfy {
                    abs($0.frame.x - place.frame.x) >= 50 || abs($0.frame.y - place.frame.y) >= 30
                })
        }
        #expect(places[12].corner == .topLeft)
        #expect(places[12].frame == (8, 8, 100, 60))
        #expect(placer.places(size: (500, 60), density: density, reach: 10).isEmpty)
    }

    /// Along the bottom edge a legend keeps above the attribution's and scale bar's row, unless a place down at the
    /// margin covers fewer points (the bottom-left corner's best, below a row of points); there the obstacles still
    /// keep it off the attribution. (The demo's world map hid
    /// Easter Island's airport under a legend one row too high.)
    @Test func theBottomEdgeReachesDownToTheMarginWhereThatCoversFewer() {
        let attribution = (x: 250.0, y: 280.0, width: 142.0, height: 14.0)
        var row = PointDensity(width: 400, height: 300, cellSize: 8)
        for x in stride(from: 4.0, to: 400, by: 8) { row.add(x: x, y: 200) }
        row.finish()
        let placer = LegendPlacer(width: 400, height: 300, obstacles: [attribution])
        let places = placer.places(size: (100, 60), density: row, reach: 10)
        // 300 − 8 − 60: the row at y = 200 lies beyond the reach; 300 − 26 − 60 = 214 would not be.
        let bottomLeft = places.first { $0.corner == .bottomLeft }
        #expect(bottomLeft.map { $0.frame == (8, 232, 100, 60) } == true)
        #expect(
            !places.contains {
                $0.frame.x < attribution.x + attribution.width + 4 && attribution.x - 4 < $0.frame.x + 100
                    && $0.frame.y < attribution.y + attribution.height + 4 && attribution.y - 4 < $0.frame.y + 60
            })
        // With nothing near the bottom, the place above the attribution's row wins the tie.
        var empty = PointDensity(width: 400, height: 300, cellSize: 8)
        empty.finish()
        #expect(
            placer.places(size: (100, 60), density: empty, reach: 10).contains { $0.frame == (8, 214, 100, 60) })
        #expect(!placer.places(size: (100, 60), density: empty, reach: 10).contains { $0.frame.y == 232 })
    }

    /// No place overlaps the compass, the scale bar or the attribution (with 4 points between): a place along the top
    /// edge was let under the compass, and a small map's scale bar, moved above the attribution, under the legend.
    /// A map too low for the right-hand edge below the compass still has its left corners, and a legend too tall for
    /// the bottom margin reaches down beside the attribution.
    @Test func placesKeepClearOfTheOtherFurniture() {
        var empty = PointDensity(width: 400, height: 300, cellSize: 8)
        empty.finish()
        func overlaps(_ a: (x: Double, y: Double, width: Double, height: Double), _ b: [Double]) -> Bool {
            a.x < b[0] + b[2] + 4 && b[0] - 4 < a.x + a.width && a.y < b[1] + b[3] + 4 && b[1] - 4 < a.y + a.height
        }
        let compass = [362.0, 8, 30, 30]
        let turned = LegendPlacer(
            width: 400, height: 300, topRightSquare: 30, obstacles: [(362, 8, 30, 30)]
        ).places(size: (94, 57), density: empty, reach: 20)
        #expect(turned.count == 12)
        #expect(!turned.contains { overlaps($0.frame, compass) })
        let bar = [6.0, 118, 72.8, 16.5]
        let small = LegendPlacer(width: 160, height: 150, obstacles: [(6, 118, 72.8, 16.5), (60, 134, 100, 16)])
            .places(size: (94, 57), density: empty, reach: 20)
        #expect(!small.isEmpty)
        #expect(!small.contains { overlaps($0.frame, bar) || overlaps($0.frame, [60, 134, 100, 16]) })
        let banner = LegendPlacer(width: 400, height: 80, topRightSquare: 30, obstacles: [(362, 8, 30, 30)])
            .places(size: (67, 27), density: empty, reach: 20)
        #expect(banner.first?.corner == .topLeft)
        #expect(banner.first.map { $0.frame == (8, 8, 67, 27) } == true)
        let tall = LegendPlacer(width: 900, height: 260, obstacles: [(700, 240, 192, 16)])
            .places(size: (139, 235), density: empty, reach: 20)
        #expect(tall.first.map { $0.frame == (8, 8, 139, 235) } == true)
        #expect(!tall.contains { overlaps($0.frame, [700, 240, 192, 16]) })
    }
}
