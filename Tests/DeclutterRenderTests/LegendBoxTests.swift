import Testing

@testable import DeclutterRender

@Suite struct LegendBoxTests {
    @Test func longNamesAreCutAtTheirEnd() {
        #expect(
            LegendBox.shortened(names: ["Short", "A rather long category name that goes on"]) == [
                "Short", "A rather long category name…",
            ])
    }

    /// Names that share their first 27 characters would read alike cut at the end: three rows of "International
    /// Business Mach…" whose colours no one could tell apart.
    @Test func namesThatWouldReadAlikeAreCutInTheMiddle() {
        let names = [
            "International Business Machines Corporation East",
            "International Business Machines Corporation West", "International Business Machines Corporation North",
            "Other",
        ]
        let shortened = LegendBox.shortened(names: names)
        #expect(
            shortened == [
                "International…poration East", "International…poration West", "International…oration North",
                "Other",
            ])
        #expect(Set(shortened).count == 4)
        #expect(shortened.allSatisfy { $0.count <= LegendBox.maximumNameLength })
    }
}
