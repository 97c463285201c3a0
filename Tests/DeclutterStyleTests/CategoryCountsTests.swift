import DeclutterStyle
import DeclutterSupport
import Foundation
import Testing

@Suite struct CategoryCountsTests {
    let style = MarkerStyle(
        name: "test", font: "DejaVu Sans Bold",
        categories: [MarkerCategory(name: "bicycle", color: .black), MarkerCategory(name: "tricycle", color: .white)],
        cluster: ClusterIconStyle(buckets: [
            ClusterSizeBucket(minimumCount: 2, diameter: 40, innerDiameter: 24, fontSize: 20)
        ]))

    @Test func parsesPairsInOrder() throws {
        let counts = try CategoryCounts.parse("bicycle=3, tricycle = 2", style: style)
        #expect(counts.entries.map(\.name) == ["bicycle", "tricycle"])
        #expect(counts["bicycle"] == 3)
        #expect(counts["tricycle"] == 2)
        #expect(counts.total == 5)
    }

    @Test func equalityIgnoresOrderAndZeros() throws {
        #expect(CategoryCounts([("a", 1), ("b", 2)]) == CategoryCounts([("b", 2), ("a", 1), ("c", 0)]))
        #expect(CategoryCounts([("a", 1)]) != CategoryCounts([("a", 2)]))
    }

    @Test(
        "bad counts are named",
        arguments: [
            ("car=3", "unknown category \"car\"; the style has: bicycle, tricycle"),
            ("bicycle=-1", "the count for \"bicycle\" must be a whole number ≥ 0, got \"-1\""),
            ("bicycle=many", "the count for \"bicycle\" must be a whole number ≥ 0, got \"many\""),
            ("bicycle=1.5", "the count for \"bicycle\" must be a whole number ≥ 0, got \"1.5\""),
            ("bicycle", "expected CATEGORY=COUNT, got \"bicycle\""),
            // A typo for another category, most likely: summed, the icon would show a count nobody wrote.
            ("bicycle=1,tricycle=2,bicycle=2", "\"bicycle\" is given twice; expected each category once"),
            ("", "expected CATEGORY=COUNT, got \"\""),
            ("bicycle=0", "the counts must add up to at least 1"),
            (
                "bicycle=999999999999999999999",
                "the count for \"bicycle\" is too large (at most 1000000000 members in all)"
            ),
            ("bicycle=1000000000,tricycle=1", "the counts add up to more than 1000000000"),
        ])
    func badCounts(text: String, message: String) {
        #expect(throws: CountsError(message)) { try CategoryCounts.parse(text, style: style) }
    }
}
