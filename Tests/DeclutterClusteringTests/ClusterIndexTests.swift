import DeclutterTestSupport
import Foundation
import Testing

@testable import DeclutterClustering
@testable import DeclutterGeometry
@testable import DeclutterInput
@testable import DeclutterSupport

/// supercluster's own fixtures (`Fixtures/supercluster`, ISC licence beside them).
@Suite struct ClusterIndexTests {
    let places: [ClusterPoint]
    init() throws {
        places = try PointReader().read(contentsOf: coreFixtures.appendingPathComponent("supercluster/places.json"))
            .points
    }

    func expectedTile(_ name: String) throws -> [JSONValue] {
        let data = try Data(contentsOf: coreFixtures.appendingPathComponent("supercluster/\(name)"))
        let root = JSONValue(foundation: try JSONSerialization.jsonObject(with: data))
        return try #require(root.object?["features"]?.array)
    }

    @Test(arguments: [("places-z0-0-0.json", 2), ("places-z0-0-0-min5.json", 5)])
    func tileEqualsSuperclusterFeatureForFeature(fixture: String, minPoints: Int) throws {
        #expect(places.count == 163)
        let index = ClusterIndex(points: places, options: ClusterOptions(minPoints: minPoints))
        let tile = try #require(index.tile(z: 0, x: 0, y: 0))
        let expected = try expectedTile(fixture)
        #expect(tile.count == expected.count)
        for (actual, wanted) in zip(tile, expected) {
            #expect(actual.json == wanted)
        }
    }

    @Test func clustersChildrenLeavesAndExpansion() throws {
        let index = ClusterIndex(points: places)
        let world = index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: 0)
        #expect(world.reduce(0) { $0 + $1.pointCount } == 162)  // Null Island has no geometry
        // supercluster's own test values.
        #expect(try index.children(of: 164).map(\.pointCount) == [6, 7, 2, 1])
        #expect(
            try index.leaves(of: 164, limit: 10, offset: 5).compactMap { $0.properties["name"]?.string }
                == [
                    "Niagara Falls", "Cape San Blas", "Cape Sable", "Cape Canaveral", "San  Salvador",
                    "Cabo Gracias a Dios",
                    "I. de Cozumel", "Grand Cayman", "Miquelon", "Cape Bauld",
                ])
        #expect(try index.expansionZoom(of: 164) == 1)
        #expect(try index.expansionZoom(of: 196) == 1)
        #expect(try index.expansionZoom(of: 581) == 2)
        #expect(try index.expansionZoom(of: 1157) == 2)
        #expect(try index.expansionZoom(of: 4134) == 3)
        #expect(throws: ClusterError.noSuchCluster(1)) { try index.children(of: 1) }
        #expect(throws: ClusterError.noSuchCluster(99_999)) { try index.children(of: 99_999) }
    }

    @Test func groupsFromParentLinksAreTheClustersAndTheirLeaves() throws {
        var points = places
        for index in points.indices { points[index].category = index % 3 == 0 ? "a" : "b" }
        let index = ClusterIndex(points: points, categories: ["a", "b"])
        for zoom in [0, 1, 3, 7, 17] {
            let groups = index.groups(atZoom: zoom)
            let features = index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(zoom))
            #expect(groups.count == features.count)
            // Each cluster of the zoom is one group holding exactly its leaves, with their categories counted.
            var byFirstMember: [Int: Int] = [:]
            for group in 0..<groups.count { byFirstMember[Int(groups.members(of: group).first ?? -1)] = group }
            for feature in features {
                let leaves =
                    try feature.clusterId.map { try index.leaves(of: $0, limit: .max).compactMap(\.pointIndex) } ?? [
                        feature.pointIndex ?? -1
                    ]
                let group = try #require(byFirstMember[leaves.min() ?? -1])
                #expect(groups.members(of: group).map(Int.init) == leaves.sorted())
                #expect(
                    groups.categoryCounts(of: group).map(Int.init) == [
                        feature.categoryCounts["a"] ?? 0, feature.categoryCounts["b"] ?? 0,
                    ]
                        || !feature.isCluster)
                #expect(Set(leaves.map { groups.groupOfPoint[$0] }) == [Int32(group)])
            }
        }
        // Null Island has no geometry, so no group.
        #expect(index.groups(atZoom: 0).groupOfPoint.filter { $0 < 0 }.count == 1)
    }

    @Test func boxesWrapAndSplitAtTheAntimeridian() {
        let index = ClusterIndex(points: places)
        let split = index.clusters(west: 129.426390, south: -103.720017, east: -445.930843, north: 114.518236, zoom: 1)
        let whole =
            index.clusters(west: 129.426390, south: -103.720017, east: 180, north: 114.518236, zoom: 1)
            + index.clusters(west: -180, south: -103.720017, east: -85.930843, north: 114.518236, zoom: 1)
        #expect(split.count == 26)
        #expect(split == whole)
        #expect(
            index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: 1).count
                == index.clusters(west: -500, south: -90, east: 500, north: 90, zoom: 1).count)
    }

    @Test func clusteringIdentifiersAndCategoriesInOneIndex() throws {
        // Two tight groups of points at the same place: the identifiers keep them apart; nil never clusters.
        var points: [ClusterPoint] = []
        for index in 0..<6 {
            points.append(
                ClusterPoint(
                    longitude: 10 + Double(index) * 1e-4, latitude: 50,
                    category: index % 2 == 0 ? "bicycle" : "tricycle",
                    clusteringIdentifier: "bicycle"))
            points.append(
                ClusterPoint(
                    longitude: 10 + Double(index) * 1e-4, latitude: 50, category: "unicycle",
                    clusteringIdentifier: "unicycle"))
        }
        points.append(ClusterPoint(longitude: 10, latitude: 50, category: "car", clusteringIdentifier: nil))
        let index = ClusterIndex(points: points, categories: ["unicycle", "bicycle", "tricycle"])
        let result = index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: 3)
        #expect(result.count == 3)
        let bicycles = try #require(result.first { $0.clusteringIdentifier == "bicycle" })
        #expect(bicycles.pointCount == 6 && bicycles.categoryCounts == ["bicycle": 3, "tricycle": 3])
        let unicycles = try #require(result.first { $0.clusteringIdentifier == "unicycle" })
        #expect(unicycles.pointCount == 6 && unicycles.categoryCounts == ["unicycle": 6])
        let single = try #require(result.first { !$0.isCluster })
        #expect(single.pointIndex == 12)
        // The same input gives the same ids.
        #expect(
            ClusterIndex(points: points).clusters(west: -180, south: -90, east: 180, north: 90, zoom: 3).map(
                \.clusterId)
                == result.map(\.clusterId))
    }

    @Test func unlocatedPointsKeepTheirIndexButAreNeverPlaced() throws {
        // Points without a position among ones with: indices stay the input's, counts only count placed points.
        var points: [ClusterPoint] = []
        for index in 0..<40 {
            let placed = index % 5 != 2
            points.append(
                ClusterPoint(
                    longitude: placed ? 10 + Double(index % 8) * 1e-3 : .nan,
                    latitude: placed ? 50 + Double(index / 8) * 1e-3 : .nan,
                    category: index % 2 == 0 ? "a" : "b", clusteringIdentifier: index < 20 ? "x" : "y"))
        }
        let index = ClusterIndex(points: points)
        for zoom in [0, 12, 17] {
            let features = index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(zoom))
            #expect(features.reduce(0) { $0 + $1.pointCount } == 32, "zoom \(zoom)")
            for feature in features where !feature.isCluster {
                let point = try #require(feature.pointIndex)
                #expect(
                    point % 5 != 2 && feature.longitude == points[point].location?.longitude
                        && feature.latitude == points[point].location?.latitude)
            }
        }
        let top = index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: 0)
        #expect(top.count == 2 && Set(top.compactMap(\.clusteringIdentifier)) == ["x", "y"])
        #expect(top.map { $0.categoryCounts.values.reduce(0, +) }.sorted() == [16, 16])
    }

    @Test func releasingFreedMemoryChangesNoResult() {
        let index = ClusterIndex(points: places),
            released = ClusterIndex(points: places, options: ClusterOptions(releasesFreedMemory: true))
        for zoom in [0, 3, 17] {
            #expect(
                released.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(zoom))
                    == index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(zoom)))
        }
        #expect(ClusterIndex(points: []).clusters(west: -180, south: -90, east: 180, north: 90, zoom: 0).isEmpty)
    }

    @Test func reducerAggregatesProperties() throws {
        let reducer = ClusterIndex.Reducer(
            map: { JSONObject([("sum", $0["scalerank"] ?? .number(0))]) },
            reduce: { accumulated, next in
                accumulated["sum"] = .number((accumulated["sum"]?.number ?? 0) + (next["sum"]?.number ?? 0))
            })
        let index = ClusterIndex(points: places, reducer: reducer)
        let total = places.reduce(0.0) { $0 + ($1.properties["scalerank"]?.number ?? 0) }
        let world = index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: 0)
        let reduced = world.reduce(0.0) {
            $0 + ($1.isCluster ? $1.properties["sum"]?.number ?? 0 : $1.properties["scalerank"]?.number ?? 0)
        }
        #expect(reduced == total)
        #expect(world.filter(\.isCluster).allSatisfy { $0.properties["sum"] != nil })
    }
}

@Suite struct ClusterShortcutTests {
    @Test func shortcutsChangeNothing() {
        // Clumps of points at every scale, so that merges happen at every zoom.
        var generator = TestRandom(seed: 11)
        func random() -> Double { generator.next() }
        var points: [ClusterPoint] = []
        for _ in 0..<400 {
            let longitude = random() * 360 - 180, latitude = random() * 160 - 80, spread = pow(10, -random() * 5)
            for _ in 0..<Int(1 + random() * 40) {
                points.append(
                    ClusterPoint(
                        longitude: max(-180, min(180, longitude + (random() - 0.5) * spread)),
                        latitude: max(-85, min(85, latitude + (random() - 0.5) * spread)),
                        category: random() < 0.5 ? "a" : "b"))
            }
        }
        let fast = ClusterIndex(points: points)
        let plain = ClusterIndex(points: points, options: ClusterOptions(shortcuts: false))
        for zoom in 0...17 {
            #expect(
                fast.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(zoom))
                    == plain.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(zoom)), "zoom \(zoom)")
        }
        for (z, x, y) in [(0, 0, 0), (3, 2, 3), (7, 64, 40)] {
            #expect(fast.tile(z: z, x: x, y: y) == plain.tile(z: z, x: x, y: y))
        }
    }

    @Test func shortcutsChangeNothingAtDeepZooms() {
        // Maps' options (extent 256, down to zoom 22): clumps from a few metres to a few kilometres wide, so clusters
        // of many zooms' merges meet points that skip their searches.
        var generator = TestRandom(seed: 17)
        func random() -> Double { generator.next() }
        var points: [ClusterPoint] = []
        for _ in 0..<200 {
            let longitude = random() * 40 - 20, latitude = random() * 40 + 20, spread = pow(10, -1.5 - random() * 3)
            for _ in 0..<Int(1 + random() * 30) {
                points.append(
                    ClusterPoint(
                        longitude: longitude + (random() - 0.5) * spread, latitude: latitude + (random() - 0.5) * spread
                    ))
            }
        }
        let options = ClusterOptions(radius: 20, extent: 256, maxZoom: 22)
        var reference = options
        reference.shortcuts = false
        let fast = ClusterIndex(points: points, options: options),
            plain = ClusterIndex(points: points, options: reference)
        #expect(fast.statistics.zoomsListedInFoundOrder >= 5)
        for zoom in 0...23 {
            #expect(
                fast.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(zoom))
                    == plain.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(zoom)), "zoom \(zoom)")
        }
    }

    @Test func shortcutsChangeNothingWithClusteringIdentifiers() {
        // Dense clumps of three groups and of points that never cluster, across many of the tree's leaves and both
        // halves of the parallel search, so neighbour lists are long and their order decides the centroids.
        var generator = TestRandom(seed: 23)
        func random() -> Double { generator.next() }
        var points: [ClusterPoint] = []
        for _ in 0..<300 {
            let longitude = random() * 300 - 150, latitude = random() * 140 - 70, spread = pow(10, -random() * 4)
            for _ in 0..<Int(1 + random() * 60) {
                let identifier: String? = [nil, "x", "y", "z"][Int(random() * 4)]
                points.append(
                    ClusterPoint(
                        longitude: longitude + (random() - 0.5) * spread,
                        latitude: latitude + (random() - 0.5) * spread,
                        category: random() < 0.5 ? "a" : "b", clusteringIdentifier: identifier))
            }
        }
        #expect(points.count > 4096)
        let fast = ClusterIndex(points: points)
        let plain = ClusterIndex(points: points, options: ClusterOptions(shortcuts: false))
        for zoom in 0...17 {
            #expect(
                fast.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(zoom))
                    == plain.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(zoom)), "zoom \(zoom)")
        }
    }

    /// The scene of ``gridAndBandNeighbourListsInSearchOrderEqualSingleSearches(radius:)``: points in a clump and
    /// in the open, in three groups and none, and a pair exactly one radius apart (items 4001 and 4005); the
    /// radius is nudged to be exactly the distance between two float32 positions.
    static func clumpedLevel(radius: Double) -> (level: ClusterIndex.Level, radius: Double) {
        var generator = TestRandom(seed: 31)
        func random() -> Double { generator.next() }
        var level = ClusterIndex.Level()
        let edge = Double(Float(0.25 + radius)), radius = edge - 0.25
        for index in 0..<9000 {
            let clump = index % 3 == 0
            var x = clump ? 0.3 + random() * 0.02 : random(), y = clump ? 0.6 + random() * 0.02 : random()
            if index == 4001 || index == 4005 { (x, y) = (index == 4001 ? 0.25 : edge, 0.125) }
            level.xs.append(Double(Float(x)))
            level.ys.append(Double(Float(y)))
            level.items.append(Int32(index))
            level.counts.append(1)
            level.groups.append(Int32(index % 4) - 1)
        }
        return (level, radius)
    }

    /// Neighbour lists from a grid or from bands, sorted into search order, are exactly each item's own k-d search (the
    /// order decides the float sums of centroids), for points in clumps and in the open, in three groups and none, and
    /// for a pair exactly one radius apart (searched again with the tree).
    @Test(arguments: [0.0005, 0.004, 0.03])
    func gridAndBandNeighbourListsInSearchOrderEqualSingleSearches(radius: Double) {
        let (level, radius) = Self.clumpedLevel(radius: radius)
        let tree = KDTree(xs: level.xs, ys: level.ys, nodeSize: 64)
        let subset = (0..<Int32(level.count)).filter { level.groups[Int($0)] >= 0 }
        // (That the tree's own search is kdbush's, on this scene, is checked in KDTreeTests.)
        let expected = (0..<level.count).map { item -> [Int32] in
            guard level.groups[item] >= 0 else { return [] }
            return tree.kdbushWithin(x: level.xs[item], y: level.ys[item], radius: radius)
                .filter { $0 != item && level.groups[$0] == level.groups[item] }.map { Int32($0) }
        }
        #expect(expected.reduce(0) { $0 + $1.count } > 3000)
        check(PointGrid(xs: level.xs, ys: level.ys, members: subset, side: min(1024, Int(1 / (2 * radius)))))
        check(PointBands(xs: level.xs, ys: level.ys, members: subset, minimumHeight: 2 * radius))

        func check<Runs: CandidateRuns>(_ runs: Runs) {
            guard
                var lists = ClusterIndex.listNeighbors(
                    level, subset: subset, radius: radius, budget: .max / 2, runs: runs)
            else {
                Issue.record("the lists went over an unlimited budget")
                return
            }
            #expect(lists.borderline.contains(4001) && lists.borderline.contains(4005))
            ClusterIndex.sortIntoSearchOrder(&lists, level: level, tree: tree, radius: radius)
            let differing = (0..<level.count).filter { item in
                Array(lists.neighbors[Int(lists.offsets[item])..<Int(lists.offsets[item + 1])]) != expected[item]
            }.count
            #expect(differing == 0, "\(Runs.self)")
            #expect(lists.neighbors[Int(lists.offsets[4001])..<Int(lists.offsets[4002])].contains(4005))
        }
    }

    /// Nearest-neighbour distances for the skipping: exact below the grid's cap, never above the true distance,
    /// also in a clump too dense for the grid (the k-d tree answers there) and at the world's edge.
    @Test func nearestDistancesAreExactOrALowerBound() {
        var generator = TestRandom(seed: 47)
        func random() -> Double { generator.next() }
        var level = ClusterIndex.Level()
        // A clump, points on the world's edge, a heap of 1,100 equal points (the tree answers, and stops at 0), the
        // rest spread.
        for index in 0..<4100 {
            let (x, y) =
                index < 1500
                ? (0.5 + random() * 1e-4, 0.25 + random() * 1e-4)
                : index < 1510
                    ? (1.0, random())
                    : index >= 3000 ? (0.75, 0.75) : (random(), random())
            level.xs.append(Double(Float(x)))
            level.ys.append(Double(Float(y)))
            level.items.append(Int32(index))
            level.counts.append(1)
            level.groups.append(0)
        }
        let nearest = ClusterIndex.nearestDistances(level, pointCount: level.count, nodeSize: 64)
        let cap = ClusterIndex.nearestCap(level.count)
        var exact = 0
        for i in 0..<level.count {
            var best = Double.infinity
            for j in 0..<level.count where j != i {
                let dx = level.xs[j] - level.xs[i], dy = level.ys[j] - level.ys[i]
                best = min(best, dx * dx + dy * dy)
            }
            let truth = best.squareRoot()
            #expect(nearest[i] <= truth, "point \(i)")
            if truth < cap {
                #expect(nearest[i] == truth, "point \(i)")
                exact += 1
            } else {
                #expect(nearest[i] >= cap, "point \(i)")
            }
        }
        #expect(exact > 2600)
        #expect(nearest[3000..<4100].allSatisfy { $0 == 0 })
    }

    @Test func listsAreSortedIntoSearchOrderOnlyWhereTheOrderMatters() {
        // Uniform points, most of which find no neighbour above zoom 8 (so few items search there), and clumps of
        // points a few metres apart: they merge at high zooms into clusters that later take in two or more items
        // at once, where the sums of the centroid may depend on the order.
        var generator = TestRandom(seed: 59)
        func random() -> Double { generator.next() }
        var points = (0..<20_000).map { _ in
            ClusterPoint(longitude: random() * 360 - 180, latitude: random() * 170 - 85)
        }
        for _ in 0..<300 {
            let longitude = random() * 360 - 180, latitude = random() * 170 - 85, spread = pow(10, -2 - random() * 3)
            for _ in 0..<Int(3 + random() * 5) {
                points.insert(
                    ClusterPoint(longitude: longitude + random() * spread, latitude: latitude + random() * spread),
                    at: Int(random() * Double(points.count)))
            }
        }
        let fast = ClusterIndex(points: points)
        let plain = ClusterIndex(points: points, options: ClusterOptions(shortcuts: false))
        #expect(fast.statistics.zoomsListedInFoundOrder >= 5)
        #expect(fast.statistics.zoomsListedInSearchOrder >= 1)
        for zoom in 0...17 {
            let expected = plain.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(zoom))
            #expect(
                fast.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(zoom)) == expected,
                "zoom \(zoom)")
            for cluster in expected.prefix(20) {
                guard let id = cluster.clusterId else { continue }
                #expect(
                    (try? fast.leaves(of: id, limit: .max)) == (try? plain.leaves(of: id, limit: .max)), "cluster \(id)"
                )
            }
        }
    }

    @Test func crowdedPointsAreSearchedInBands() throws {
        // A city of points within a few kilometres and a few points elsewhere: on a world-wide grid the city would
        // fill one cell, so the searches go by bands over the points' own extent.
        var generator = TestRandom(seed: 71)
        func random() -> Double { generator.next() }
        var points = (0..<6000).map { _ in
            ClusterPoint(longitude: -74 + random() * 0.05, latitude: 40.7 + random() * 0.05)
        }
        points += (0..<50).map { _ in ClusterPoint(longitude: random() * 360 - 180, latitude: random() * 170 - 85) }
        let fast = ClusterIndex(points: points)
        let plain = ClusterIndex(points: points, options: ClusterOptions(shortcuts: false))
        #expect(fast.statistics.zoomsListedFromBands >= 3)
        for zoom in 0...17 {
            #expect(
                fast.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(zoom))
                    == plain.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(zoom)), "zoom \(zoom)")
        }
    }

    @Test func mergeOrderMattersOnlyForRoundedSumsReducersAndUnmergedItems() {
        // One item with two neighbours: the origin (index 0) and items 1 and 2.
        func level(_ xs: [Double], counts: [Int32]) -> ClusterIndex.Level {
            var level = ClusterIndex.Level()
            level.xs = xs
            level.ys = xs
            level.counts = counts
            level.items = [0, 1, 2]
            level.groups = [0, 0, 0]
            return level
        }
        func dependsOnOrder(
            _ level: ClusterIndex.Level, offsets: [Int32] = [0, 2, 2, 2], neighbors: [Int32] = [1, 2],
            minPoints: Int = 2, reduces: Bool = false
        ) -> Bool {
            let lists = ClusterIndex.NeighborLists(offsets: offsets, neighbors: neighbors, borderline: [])
            return ClusterIndex.mergeDependsOnOrder(level, lists, minPoints: minPoints, reduces: reduces)
        }
        // float32 positions of single points add up exactly in any order.
        let points = level([Double(Float(0.3)), Double(Float(0.7)), Double(Float(0.1))], counts: [1, 1, 1])
        #expect(!dependsOnOrder(points))
        // Clusters' centroids have all 53 bits: here 0.123·3 + 0.456·2 + 0.789 rounds differently in the other order.
        let cluster = level([0.123, 0.456, 0.789], counts: [3, 2, 1])
        let origin: Double = 0.123 * 3, member: Double = 0.456 * 2
        let first: Double = origin + member + 0.789, second: Double = origin + 0.789 + member
        #expect(first != second)
        #expect(dependsOnOrder(cluster))
        // With one neighbour, or with the second taken by an earlier item, there is one order only.
        #expect(!dependsOnOrder(cluster, offsets: [0, 1, 1, 1], neighbors: [1]))
        #expect(!dependsOnOrder(cluster, offsets: [0, 1, 2, 2], neighbors: [2, 2]))
        // Items left unmerged are appended to the next level in list order; a reducer folds in list order.
        #expect(dependsOnOrder(points, minPoints: 4))
        #expect(dependsOnOrder(points, reduces: true))
    }

    @Test func shortcutsChangeNothingOnUniformPoints() throws {
        // Uniform points: most have no neighbour at most zooms, so long runs of lone items are copied at once.
        var generator = TestRandom(seed: 5)
        func random() -> Double { generator.next() }
        let points = (0..<40_000).map { _ in
            ClusterPoint(longitude: random() * 360 - 180, latitude: random() * 170 - 85)
        }
        let fast = ClusterIndex(points: points, options: ClusterOptions(maxZoom: 12))
        let plain = ClusterIndex(points: points, options: ClusterOptions(maxZoom: 12, shortcuts: false))
        #expect(fast.statistics.levelsKeptAsChanges >= 5)
        #expect(plain.statistics.levelsKeptAsChanges == 0 && plain.statistics.zoomsSearchedOneByOne == 13)
        for zoom in 0...13 {
            let expected = plain.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(zoom))
            #expect(
                fast.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(zoom)) == expected,
                "zoom \(zoom)")
            #expect(expected.reduce(0) { $0 + $1.pointCount } == points.count)
        }
        // A cluster's id names its origin's place in the level above; finding the children there checks every
        // level's order as spelled out from the changes.
        var checked = 0
        for zoom in 0...12 {
            for cluster in fast.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(zoom)) {
                guard let id = cluster.clusterId else { continue }
                let children = try fast.children(of: id)
                #expect(children.reduce(0) { $0 + $1.pointCount } == cluster.pointCount, "cluster \(id)")
                checked += 1
            }
        }
        #expect(checked > 10_000)
    }
}
