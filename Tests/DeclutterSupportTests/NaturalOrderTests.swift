import DeclutterSupport
import Testing

/// Names ordered with their numbers as numbers, as legends list values of equal counts.
@Suite struct NaturalOrderTests {
    @Test func numbersCompareAsNumbers() {
        let names = ["k10", "k2", "k1", "k0", "route 10", "route 9", "a", "k01", "k", "K3", "x2y10", "x2y9", "10", "9"]
        #expect(
            names.sorted { $0.inNaturalOrder(before: $1) }
                == ["9", "10", "K3", "a", "k", "k0", "k01", "k1", "k2", "k10", "route 9", "route 10", "x2y9", "x2y10"])
    }

    /// The order is total: of two different strings exactly one comes first, and a string never before itself.
    @Test func theOrderIsTotal() {
        let names = ["k01", "k1", "k001", "a1b", "a01c", "1", "01", "", "-1", "ä2", "ä10"]
        for a in names {
            #expect(!a.inNaturalOrder(before: a))
            for b in names where a != b {
                #expect(a.inNaturalOrder(before: b) != b.inNaturalOrder(before: a), "\(a) \(b)")
            }
        }
        #expect("ä2".inNaturalOrder(before: "ä10") && "01".inNaturalOrder(before: "1"))
    }
}
