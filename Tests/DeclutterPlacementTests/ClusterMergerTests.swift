import DeclutterTestSupport
import Foundation
import Testing

@testable import DeclutterGeometry
@testable import DeclutterPlacement

@Suite struct ClusterMergerTests {
    /// Random views of a few groups over a small area, so that most collide, with mixed sizes, offsets, modes and
    /// weights; some views sit on the same point and some on a lattice, so that exact ties occur.
    func randomViews(_ random: inout SplitMix64, count: Int, side: Double) -> [PlacementView] {
        let modes: [CollisionMode] = [.rectangle, .circle, .circle, .none]
        var views: [PlacementView] = []
        for index in 0..<count {
            var x = Double(random.below(Int(side * 10))) / 10, y = Double(random.below(Int(side * 10))) / 10
            if random.below(8) == 0, let earlier = views.last { (x, y) = (earlier.x, earlier.y) }
            if random.below(8) == 0 {
                (x, y) = (
                    x.rounded() - x.truncatingRemainder(dividingBy: 8),
                    y.rounded() - y.truncatingRemainder(dividingBy: 8)
                )
            }
            let size = [20.0, 30, 40, 0][random.below(4)]
            views.append(
                PlacementView(
                    x: x, y: y, width: size, height: size * 1.25,
                    offsetX: random.below(3) == 0 ? 0 : Double(random.below(21)) - 10,
                    offsetY: random.below(2) == 0 ? 0 : -Double(random.below(20)),
                    collisionMode: modes[index % 7 == 6 ? 3 : random.below(3)],
                    displayPriority: [.defaultLow, .defaultHigh, DisplayPriority(500)][random.below(3)],
                    clusteringGroup: Int32(random.below(5)) - 1, weight: 1 + random.below(3)))
        }
        return views
    }

    /// Merges `views` both ways, expects the nearest-first path to make exactly the reference's merges (views,
    /// member runs, members), and returns the reference's result.
    func referenceMerges(
        _ views: [PlacementView], rule: ClusterRule = ClusterRule(), repeating: WorldRepeat? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> ClusterMerger.Result {
        let reference = ClusterMerger(rule: rule, repeating: repeating, queuesAllPairs: true).merge(views, hulls: nil)
        let nearest = ClusterMerger(rule: rule, repeating: repeating).merge(views, hulls: nil)
        #expect(nearest.views == reference.views, sourceLocation: sourceLocation)
        #expect(nearest.memberStarts == reference.memberStarts, sourceLocation: sourceLocation)
        #expect(nearest.members == reference.members, sourceLocation: sourceLocation)
        return reference
    }

    @Test(arguments: 0..<24)
    func nearestFirstMakesTheReferenceMerges(scene: Int) {
        var random = SplitMix64(state: UInt64(1000 + scene))
        let side = [150.0, 300, 500][scene % 3]
        let views = randomViews(&random, count: 150 + random.below(250), side: side)
        // From five members on, clusters are boxes with an offset, or in every fifth scene views that collide with
        // nothing (which the reference still files and lets pair as the newer side).
        let large = ClusterViewDescription(
            width: 50, height: 44, collisionMode: scene % 5 == 4 ? .none : .rectangle, centerOffset: [0, -10])
        let rule = ClusterRule(
            views: [(2, ClusterViewDescription()), (5, large)],
            maximumSpread: scene % 4 == 3 ? nil : [60.0, 100, 160][scene % 3])
        // Every other scene repeats sideways with a period about the area's width, so copies meet across the seam.
        let repeating =
            scene % 2 == 1
            ? WorldRepeat(periodX: side * 0.9, periodY: 0, minX: -30, minY: -30, maxX: side + 30, maxY: side + 30) : nil
        let reference = referenceMerges(views, rule: rule, repeating: repeating)
        #expect(reference.views.count < views.count - 5)  // the scenes do merge
    }

    @Test(arguments: 0..<12)
    func sparseViewsMergeAsTheReferenceDoes(scene: Int) {
        // Views spread thin with a few crowded patches, so that many views lie apart from any merge (and are left out
        // of the search) while the patches merge; every other scene repeats sideways, so views meet across the seam.
        var random = SplitMix64(state: UInt64(3000 + scene))
        let side = [8000.0, 12000][scene % 2]
        var views = randomViews(&random, count: 200, side: side)
        for _ in 0..<3 {
            let corner = (x: Double(random.below(Int(side - 200))), y: Double(random.below(Int(side - 200))))
            for view in randomViews(&random, count: 60, side: 200) {
                var moved = view
                moved.x += corner.x
                moved.y += corner.y
                views.insert(moved, at: random.below(views.count + 1))
            }
        }
        let large = ClusterViewDescription(width: 50, height: 44, collisionMode: .rectangle, centerOffset: [0, -10])
        let rule = ClusterRule(
            views: [(2, ClusterViewDescription()), (5, large)], maximumSpread: [60.0, 100, 160][scene % 3])
        let repeating =
            scene % 2 == 1
            ? WorldRepeat(periodX: side * 0.9, periodY: 0, minX: -30, minY: -30, maxX: side + 30, maxY: side + 30) : nil
        let apart = ClusterMerger(rule: rule, repeating: repeating).viewsApart(views) ?? []
        #expect(apart.filter { $0 }.count > 40)
        let reference = referenceMerges(views, rule: rule, repeating: repeating)
        #expect(reference.views.count < views.count - 10)  // the patches do merge
    }

    @Test(arguments: [(20.0, 90.0), (45, 30), (60, 0)])
    func nearestFirstMakesTheReferenceMergesOnAPitchedMap(pitch: Double, bearing: Double) throws {
        // A world 433 points wide on a 1024×768 map: copies repeat on the flat map and are projected, no fixed step.
        let camera = try MapCamera(
            center: Coordinate(longitude: 100, latitude: -50), zoom: 0.76, bearing: bearing, pitch: pitch,
            width: 1024, height: 768)
        let repeating = WorldRepeat(camera: camera, margin: 30)
        var random = SplitMix64(state: UInt64(pitch))
        let views = randomViews(&random, count: 400, side: 760)
        let rule = ClusterRule(
            views: [(2, ClusterViewDescription()), (5, ClusterViewDescription(width: 50, height: 44))],
            maximumSpread: 100)
        let reference = referenceMerges(views, rule: rule, repeating: repeating)
        #expect(reference.views.count < views.count - 5)
    }

    @Test func manyViewsOnOnePointMergeAsTheReferenceDoes() {
        // 200 views of one group on one point among others: they all tie, and the same merges are made.
        var random = SplitMix64(state: 17)
        var views = randomViews(&random, count: 100, side: 300)
        views += (0..<200).map { _ in
            PlacementView(x: 150, y: 150, width: 30, height: 30, displayPriority: .defaultHigh, clusteringGroup: 0)
        }
        let reference = referenceMerges(views)
        // The 200 end in one cluster with whatever of group 0 lies near enough.
        #expect(reference.views.map(\.weight).max() ?? 0 >= 200)
    }

    @Test func viewsOnOnePointWithAWorldRepeatMergeAsTheReferenceDoes() {
        // 300 views on one point, and 300 a period to its right whose copies land on the same point; a period that
        // is no round number makes the two sets' distances differ in rounding, so only each set's own views tie.
        let period = 270.1 / 3
        var random = SplitMix64(state: 23)
        var views = randomViews(&random, count: 100, side: 300)
        for index in 0..<600 {
            let view = PlacementView(
                x: index % 2 == 0 ? 20.3 : 20.3 + period, y: 150, width: 30, height: 30,
                collisionMode: index % 3 == 0 ? .circle : .rectangle, displayPriority: .defaultHigh,
                clusteringGroup: Int32(index % 4 == 3 ? 1 : 0))
            views.insert(view, at: random.below(views.count + 1))
        }
        let repeating = WorldRepeat(periodX: period, periodY: 0, minX: -30, minY: -30, maxX: 330, maxY: 330)
        let reference = referenceMerges(views, repeating: repeating)
        #expect(reference.views.map(\.weight).max() ?? 0 >= 400)
    }

    @Test func tenThousandViewsOnOnePointWithAWorldRepeatMergeIntoOneCluster() {
        // Four copies of the point lie in the region. Searching every view on the point for each merge made this
        // quadratic: 5,000 and 20,000 views had not finished after 300 s in a debug build, and take 3 s and 13–20 s
        // now.
        let count = 10_000
        let views = (0..<count).map { _ in
            PlacementView(x: 500, y: 500, width: 40, height: 40, displayPriority: .defaultHigh, clusteringGroup: 0)
        }
        let repeating = WorldRepeat(periodX: 256, periodY: 0, minX: -30, minY: -30, maxX: 1030, maxY: 1030)
        let result = ClusterMerger(rule: ClusterRule(), repeating: repeating).merge(views, hulls: nil)
        #expect(result.views.count == 1)
        #expect(result.views.first.map { [$0.x, $0.y] } == [500, 500])
        #expect(result.members == (0..<count).map(Int32.init))
    }

    /// Spread views with a few points that each hold hundreds of views, interleaved with the rest by number: views
    /// of several groups, sizes and offsets (so that some on a point miss each other), and some a hair beside the
    /// point, so that pairs on the point tie while pairs beside it do not.
    func stackedViews(_ random: inout SplitMix64, side: Double) -> [PlacementView] {
        var views = randomViews(&random, count: 200, side: side)
        let stacks = (0..<3).map { _ in (x: Double(random.below(Int(side))), y: Double(random.below(Int(side)))) }
        for _ in 0..<(600 + random.below(300)) {
            let stack = stacks[random.below(3)]
            let size = [20.0, 30, 40][random.below(3)]
            let nudge = random.below(10) == 0 ? 1e-9 * Double(random.below(3) + 1) : 0
            let view = PlacementView(
                x: stack.x + nudge, y: stack.y, width: size, height: size,
                offsetY: random.below(6) == 0 ? -60 : 0, collisionMode: random.below(2) == 0 ? .circle : .rectangle,
                displayPriority: .defaultHigh, clusteringGroup: Int32(random.below(3)) - 1, weight: 1 + random.below(2))
            views.insert(view, at: random.below(views.count + 1))
        }
        return views
    }

    @Test(arguments: 0..<12)
    func viewsStackedOnAFewPointsMergeAsTheReferenceDoes(scene: Int) {
        var random = SplitMix64(state: UInt64(2000 + scene))
        let side = [120.0, 400][scene % 2]
        let views = stackedViews(&random, side: side)
        // Tight spreads make merges on and beside a stack fail, so views search again past the pair they had.
        let large = ClusterViewDescription(
            width: 50, height: 44, collisionMode: scene % 6 == 5 ? .none : .rectangle, centerOffset: [0, -10])
        let rule = ClusterRule(
            views: [(2, ClusterViewDescription()), (5, large)],
            maximumSpread: scene % 4 == 3 ? nil : [30.0, 60, 160][scene % 3])
        let repeating =
            scene % 3 == 2
            ? WorldRepeat(periodX: side * 0.9, periodY: 0, minX: -30, minY: -30, maxX: side + 30, maxY: side + 30) : nil
        let reference = referenceMerges(views, rule: rule, repeating: repeating)
        #expect(reference.views.count < views.count - 400)  // the stacks do merge
    }

    @Test func aThousandViewsOnOnePointMergeAsTheReferenceDoes() {
        // Only ties: every pair is as near as every other, so the views' numbers alone order the merges.
        let views = (0..<1000).map { index in
            PlacementView(
                x: 500, y: 500, width: 40, height: 40, collisionMode: index % 3 == 0 ? .circle : .rectangle,
                displayPriority: .defaultHigh, clusteringGroup: Int32(index % 2), weight: 1 + index % 3)
        }
        let reference = referenceMerges(views)
        #expect(reference.memberStarts == [0, 500, 1000])  // one cluster for each group
    }

    @Test func theTwoPathsAgreeThroughPlacementOnAMap() throws {
        // The map annotator's own scenes, placed both ways: same views, same visibility.
        var random = SplitMix64(state: 5)
        let views = randomViews(&random, count: 2000, side: 900)
        let reference = PlacementEngine.place(views, width: 900, height: 900, mergesAllPairs: true)
        let nearest = PlacementEngine.place(views, width: 900, height: 900)
        #expect(nearest.views == reference.views)
        #expect(nearest.visible == reference.visible)
        #expect(nearest.members == reference.members)
    }

    /// `count` 40×40 `defaultHigh` views of one clustering identifier, uniform over a 300×300 square in the middle
    /// of a 1000×1000 viewport: nearly every view collides with hundreds of others.
    static func crowdedScene(count: Int, seed: UInt64) -> PlacementScene {
        var random = SplitMix64(state: seed)
        let annotations = (0..<count).map { index in
            PlacementAnnotation(
                id: "v\(index)", x: 350 + random.unit() * 300, y: 350 + random.unit() * 300, width: 40, height: 40,
                displayPriority: .defaultHigh, clusteringIdentifier: "bike")
        }
        return PlacementScene(width: 1000, height: 1000, annotations: annotations)
    }

    @Test func twentyThousandCrowdedViewsMergeIntoAFewClusters() {
        // Queuing every colliding pair made this scene take minutes (millions of pairs in the queue).
        let result = PlacementEngine.place(Self.crowdedScene(count: 20_000, seed: 42))
        #expect(result.visible.count == 0 && result.hidden.count == 0)
        // 33 clusters, none overlapping another, so all shown; every view in exactly one of them.
        #expect(result.clusters.count == 33)
        #expect(result.clusters.filter(\.visible).count == 33)
        #expect(result.clusters.map(\.members.count).reduce(0, +) == 20_000)
        #expect(result.clusters.map(\.members.count).max() == 1159)
    }

    @Test func twentyThousandViewsOnOnePointMergeIntoOneCluster() {
        // Views on one point all tie; queuing every pair (or searching them all for each merge) took minutes here.
        let annotations = (0..<20_000).map { index in
            PlacementAnnotation(
                id: "v\(index)", x: 500, y: 500, width: 40, height: 40, displayPriority: .defaultHigh,
                clusteringIdentifier: "bike")
        }
        let result = PlacementEngine.place(PlacementScene(width: 1000, height: 1000, annotations: annotations))
        #expect(result.visible.isEmpty && result.hidden.isEmpty)
        #expect(result.clusters.count == 1)
        #expect(result.clusters.first?.visible == true)
        #expect(result.clusters.first?.members == annotations.map(\.id))
        #expect(result.clusters.first.map { [$0.x, $0.y] } == [500, 500])
    }
}
