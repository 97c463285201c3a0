import DeclutterMapContent
import DeclutterStyle
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

    /// A CSV's quoted field may hold a line break: its row is drawn on one line, as tall as any other, where it was
    /// drawn on two lines running into the rows above and below.
    @Test func namesWithLineBreaksAreDrawnOnOneLine() throws {
        #expect(LegendBox.oneLine("c\nd") == "c d")
        #expect(LegendBox.oneLine("a\r\nb\tc") == "a b c")
        #expect(LegendBox.oneLine("Zürich") == "Zürich")
        let text = try TextEngine(), color = RGBAColor(red: 0, green: 0.5, blue: 1)
        func box(_ names: [String], title: String) throws -> LegendBox {
            try LegendBox(
                MapLegend(title: title, rows: names.map { MapLegend.Row(name: $0, color: color, count: 167) }),
                text: text)
        }
        let broken = try box(["a,b", "c\nd", "e"], title: "kind\nof"),
            plain = try box(["a,b", "c d", "e"], title: "kind of")
        #expect(broken.size.width == plain.size.width)
        #expect(broken.size.height == plain.size.height)
    }
}
