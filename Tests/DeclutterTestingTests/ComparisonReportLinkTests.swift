import Testing

@testable import DeclutterTesting

/// The report's relative links: each path component percent-encoded, so that an attribute holding one reads back as
/// the file's name.
@Suite struct ComparisonReportLinkTests {
    @Test func linksEncodeWhatAnAttributeOrAURLWouldReadAsSyntax() {
        // `&copy` in an attribute is ©, `#` starts a fragment, `?` a query, `%` an escape; `/` separates folders.
        #expect(ComparisonReport.link("maps/a&copy.png") == "maps/a%26copy.png")
        #expect(ComparisonReport.link("b #1?.png") == "b%20%231%3F.png")
        #expect(ComparisonReport.link("100%/ü.png") == "100%25/%C3%BC.png")
    }
}
