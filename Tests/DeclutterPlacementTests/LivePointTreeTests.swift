import DeclutterTestSupport
import Testing

@testable import DeclutterPlacement

@Suite struct LivePointTreeTests {
    /// A merger's filed copy of a view takes 88 bytes of its leaf (104 before the removed flag went into the link and
    /// the payload's small fields after its shape): the trees of two zooms were a fifth of placing the cities' peak.
    @Test func aMergersFiledCopyTakes88Bytes() {
        #expect(MemoryLayout<ClusterMerger.Filed>.stride == 64)
        #expect(MemoryLayout<LivePointTree<ClusterMerger.Filed>.Entry>.stride == 88)
    }

    @Test(arguments: 0..<6)
    func fillingAtOnceBuildsTheTreeOfFilingOneByOne(seed: Int) {
        // Points spread out, on a lattice, stacked many on one point and some not finite, filed both ways; every
        // search then meets the same points in the same order, as points are removed and more are filed.
        var random = SplitMix64(state: UInt64(seed))
        var batch: [(x: Double, y: Double, payload: Int)] = []
        for index in 0..<(2000 + random.below(2000)) {
            var x = random.unit() * 1000, y = random.unit() * 1000
            switch random.below(10) {
            case 0: (x, y) = (500, 500)
            case 1: (x, y) = ((x / 50).rounded() * 50, (y / 50).rounded() * 50)
            case 2 where index % 7 == 0: x = .nan
            default: break
            }
            batch.append((x, y, index))
        }
        var oneByOne = LivePointTree<Int>(minX: 0, minY: 0, maxX: 900, maxY: 900)
        var atOnce = oneByOne
        let numbers = batch.map { oneByOne.insert(x: $0.x, y: $0.y, $0.payload) }
        #expect(atOnce.insertAll(batch) == numbers)
        func visits(_ tree: inout LivePointTree<Int>, x: Double, y: Double, radius: Double) -> [Int] {
            var met: [Int] = []
            let visit = { (payload: Int) -> Bool in
                met.append(payload)
                return false
            }
            tree.search(x: x, y: y, radius: { radius }, inner: 0, visit)
            return met
        }
        for round in 0..<200 {
            let x = random.unit() * 1100 - 50, y = random.unit() * 1100 - 50, radius = random.unit() * 120
            #expect(visits(&oneByOne, x: x, y: y, radius: radius) == visits(&atOnce, x: x, y: y, radius: radius))
            let point = numbers[random.below(numbers.count)]  // -1 (a point never filed) is ignored
            oneByOne.remove(point)
            atOnce.remove(point)
            if round % 4 == 0 {
                let x = random.unit() * 1000, y = random.unit() * 1000
                #expect(oneByOne.insert(x: x, y: y, -round) == atOnce.insert(x: x, y: y, -round))
            }
        }
    }
}
