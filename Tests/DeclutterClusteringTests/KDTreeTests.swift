import DeclutterTestSupport
import Testing

@testable import DeclutterClustering
@testable import DeclutterGeometry
@testable import DeclutterSupport

/// The k-d tree against kdbush 4 (supercluster's index, float32 coordinates): its sort, its range and radius
/// searches in its traversal order (supercluster's results follow that order), and a brute-force scan.
@Suite struct KDTreeTests {
    /// Forty points on a lattice, nodeSize 4: kdbush 4.1's own results for them (ids in k-d order, a box, two
    /// radius searches, one of radius 0).
    @Test func sortsAndSearchesAsKdbushDoes() {
        let xs = (0..<40).map { Double(($0 * 37) % 101) }, ys = (0..<40).map { Double(($0 * 59 + 13) % 97) }
        let tree = KDTree(xs: xs, ys: ys, nodeSize: 4)
        #expect(
            tree.entries.map { Int($0.id) } == [
                0, 33, 25, 36, 17, 28, 20, 12, 23, 22, 14, 11, 3, 6, 39, 9, 31, 1, 34, 4,
                15, 18, 10, 2, 13, 5, 38, 8, 30, 7, 26, 29, 37, 21, 32, 24, 35, 16, 27, 19,
            ])
        #expect(tree.range(minX: 20, minY: 30, maxX: 60, maxY: 70) == [4, 7, 37, 9, 17, 12])
        #expect(tree.within(x: 50, y: 50, radius: 25) == [4, 7, 32, 37, 15, 9, 12])
        #expect(tree.within(x: 37, y: 72, radius: 0) == [1])
    }

    /// Five thousand points, nodeSize 64 (supercluster's): enough for kdbush's Floyd–Rivest selection to sample.
    /// Expected: kdbush 4.1's results, and a digest of its k-d order (`digest = (digest · 31 + id) mod 1e9+7`).
    @Test func sortsLargeInputsAsKdbushDoes() {
        let xs = (0..<5000).map { Double(($0 * 7919) % 10007) },
            ys = (0..<5000).map { Double(($0 * 104_729 + 17) % 10009) }
        let tree = KDTree(xs: xs, ys: ys, nodeSize: 64)
        let ids = tree.entries.map { Int($0.id) }
        #expect(ids.prefix(12) == [4529, 1476, 134, 3489, 3858, 0, 2492, 2147, 805, 3187, 2818, 4874])
        #expect(ids.reduce(0) { ($0 * 31 + $1) % 1_000_000_007 } == 141_590_367)
        #expect(
            tree.range(minX: 2000, minY: 7000, maxX: 2600, maxY: 7400)
                == [4293, 3622, 3253, 2582, 2472, 1432, 2103, 3143, 4595, 90, 761, 4964, 1801, 1130, 3924])
        #expect(
            tree.within(x: 5000, y: 5000, radius: 400)
                == [
                    4148, 3108, 1095, 424, 1766, 2437, 3477, 2806, 2068, 1028, 357, 1397, 726, 55, 616, 314, 4450, 3779,
                    1287,
                    4819, 3410, 4752, 4081, 2739,
                ])
    }

    /// Boxes and circles over random points, with heaps of equal points, at several leaf sizes: the searches find
    /// what a scan of every point finds (at float32 positions), in the order of kdbush's traversal written out.
    @Test(arguments: [2, 16, 64])
    func searchesFindWhatAScanFindsInKdbushOrder(nodeSize: Int) {
        var generator = TestRandom(seed: 83)
        func random() -> Double { generator.next() }
        var xs = (0..<3000).map { _ in random() }, ys = (0..<3000).map { _ in random() * random() }
        xs += repeatElement(0.5, count: 100)
        ys += repeatElement(0.25, count: 100)
        let tree = KDTree(xs: xs, ys: ys, nodeSize: nodeSize)
        let storedX = xs.map { Double(Float($0)) }, storedY = ys.map { Double(Float($0)) }
        for _ in 0..<40 {
            let minX = random() * 0.9, minY = random() * 0.5, maxX = minX + random() * 0.2, maxY = minY + random() * 0.2
            let found = tree.range(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
            #expect(
                found.sorted()
                    == xs.indices.filter {
                        storedX[$0] >= minX && storedX[$0] <= maxX && storedY[$0] >= minY && storedY[$0] <= maxY
                    })
            #expect(found == tree.kdbushRange(minX: minX, minY: minY, maxX: maxX, maxY: maxY))
        }
        for query in 0..<60 {
            let (x, y) = query < 5 ? (0.5, 0.25) : (random(), random() * 0.5), radius = random() * 0.05
            let found = tree.within(x: x, y: y, radius: radius)
            #expect(
                found.sorted()
                    == xs.indices.filter {
                        (storedX[$0] - x) * (storedX[$0] - x) + (storedY[$0] - y) * (storedY[$0] - y) <= radius * radius
                    })
            #expect(found == tree.kdbushWithin(x: x, y: y, radius: radius))
        }
    }

    /// The clustering tests' scene of clumps and a pair exactly one radius apart: every searched item's results are
    /// kdbush's, in its order.
    @Test(arguments: [0.0005, 0.004, 0.03])
    func withinIsKdbushsSearchOnClumps(radius: Double) {
        let (level, radius) = ClusterShortcutTests.clumpedLevel(radius: radius)
        let tree = KDTree(xs: level.xs, ys: level.ys, nodeSize: 64)
        for item in stride(from: 0, to: level.count, by: 7) {
            #expect(
                tree.within(x: level.xs[item], y: level.ys[item], radius: radius)
                    == tree.kdbushWithin(x: level.xs[item], y: level.ys[item], radius: radius))
        }
        #expect(tree.within(x: level.xs[4001], y: level.ys[4001], radius: radius).contains(4005))
    }

    /// Search ranks order every search's results: lists sorted by rank are in search order.
    @Test func searchRanksAreTheOrderOfEverySearch() {
        var generator = TestRandom(seed: 89)
        func random() -> Double { generator.next() }
        let xs = (0..<5000).map { _ in random() }, ys = (0..<5000).map { _ in random() }
        let tree = KDTree(xs: xs, ys: ys, nodeSize: 16)
        let ranks = tree.searchRanks()
        #expect(Set(ranks).count == xs.count && ranks.allSatisfy { $0 >= 0 && Int($0) < xs.count })
        for _ in 0..<50 {
            let found = tree.within(x: random(), y: random(), radius: random() * 0.1)
            #expect(found == found.sorted { ranks[$0] < ranks[$1] })
            let minX = random(), minY = random()
            let boxed = tree.range(minX: minX, minY: minY, maxX: minX + 0.1, maxY: minY + 0.1)
            #expect(boxed == boxed.sorted { ranks[$0] < ranks[$1] })
        }
    }

    /// The nearest other point's distance, against a scan; a heap of equal points gives 0; one point gives infinity.
    @Test func nearestDistanceIsAScansMinimum() {
        var generator = TestRandom(seed: 97)
        func random() -> Double { generator.next() }
        var xs = (0..<2000).map { _ in random() }, ys = (0..<2000).map { _ in random() }
        xs += [0.75, 0.75, 0.75]
        ys += [0.125, 0.125, 0.125]
        let tree = KDTree(xs: xs, ys: ys, nodeSize: 8)
        let storedX = xs.map { Double(Float($0)) }, storedY = ys.map { Double(Float($0)) }
        for i in stride(from: 0, to: xs.count, by: 13) + [2000, 2001, 2002] {
            var best = Double.infinity
            for j in xs.indices where j != i {
                let dx = storedX[j] - storedX[i], dy = storedY[j] - storedY[i]
                best = min(best, dx * dx + dy * dy)
            }
            #expect(tree.nearestDistance(x: storedX[i], y: storedY[i], excluding: i) == best.squareRoot(), "point \(i)")
        }
        #expect(tree.nearestDistance(x: 0.75, y: 0.125, excluding: 2000) == 0)
        #expect(KDTree(xs: [0.5], ys: [0.5]).nearestDistance(x: 0.5, y: 0.5, excluding: 0) == .infinity)
    }
}

extension KDTree {
    /// kdbush's `range`, written out as kdbush has it: a stack of ranges, the middle item tested first, the lower
    /// half pushed before the upper, so the upper half is searched first.
    func kdbushRange(minX: Double, minY: Double, maxX: Double, maxY: Double) -> [Int] {
        var result: [Int] = []
        var stack = [0, entries.count - 1, 0]
        func test(_ index: Int) {
            let x = Double(entries[index].x), y = Double(entries[index].y)
            if x >= minX && x <= maxX && y >= minY && y <= maxY { result.append(Int(entries[index].id)) }
        }
        while !stack.isEmpty {
            let axis = stack.removeLast(), right = stack.removeLast(), left = stack.removeLast()
            if right - left <= nodeSize {
                for index in stride(from: left, through: right, by: 1) { test(index) }
                continue
            }
            let middle = (left + right) >> 1
            test(middle)
            let split = Double(axis == 0 ? entries[middle].x : entries[middle].y)
            if axis == 0 ? minX <= split : minY <= split { stack += [left, middle - 1, 1 - axis] }
            if axis == 0 ? maxX >= split : maxY >= split { stack += [middle + 1, right, 1 - axis] }
        }
        return result
    }

    /// kdbush's `within`, written out as kdbush has it: a stack of ranges, the middle item measured first, the lower
    /// half pushed before the upper, so the upper half is searched first.
    func kdbushWithin(x qx: Double, y qy: Double, radius: Double) -> [Int] {
        var result: [Int] = []
        var stack = [0, entries.count - 1, 0]
        func measure(_ index: Int) {
            let dx = Double(entries[index].x) - qx, dy = Double(entries[index].y) - qy
            if dx * dx + dy * dy <= radius * radius { result.append(Int(entries[index].id)) }
        }
        while !stack.isEmpty {
            let axis = stack.removeLast(), right = stack.removeLast(), left = stack.removeLast()
            if right - left <= nodeSize {
                for index in stride(from: left, through: right, by: 1) { measure(index) }
                continue
            }
            let middle = (left + right) >> 1
            measure(middle)
            let split = Double(axis == 0 ? entries[middle].x : entries[middle].y)
            if (axis == 0 ? qx : qy) - radius <= split { stack += [left, middle - 1, 1 - axis] }
            if (axis == 0 ? qx : qy) + radius >= split { stack += [middle + 1, right, 1 - axis] }
        }
        return result
    }
}
