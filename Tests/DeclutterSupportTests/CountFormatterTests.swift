import DeclutterSupport
import DeclutterTestSupport
import Testing

@Suite struct CountFormatterTests {
    @Test(
        "supercluster's point_count_abbreviated below a million, including its rounding",
        arguments: [
            (2, "2"), (999, "999"), (1_000, "1k"), (1_049, "1k"), (1_050, "1.1k"), (1_234, "1.2k"), (1_250, "1.3k"),
            (9_949, "9.9k"), (9_950, "10k"), (9_999, "10k"), (10_000, "10k"), (12_345, "12k"), (12_500, "13k"),
            (999_499, "999k"),
        ])
    func supercluster(count: Int, expected: String) {
        #expect(CountFormatter.abbreviated(count) == expected)
        #expect(CountFormatter.superclusterAbbreviated(count) == expected)
    }

    /// Where supercluster's thousands round to 1000k, icons already say a million.
    @Test func thousandsThatRoundToAThousandAreAMillion() {
        #expect(CountFormatter.superclusterAbbreviated(999_500) == "1000k")
        #expect(CountFormatter.abbreviated(999_500) == "1M")
        #expect(CountFormatter.abbreviated(999_999) == "1M")
        #expect(CountFormatter.abbreviated(9_999_999) == "10M")
    }

    /// Cluster properties and tiles keep supercluster's text past a million, where icons say `1.2M`.
    @Test func superclusterHasNoMillions() {
        #expect(CountFormatter.superclusterAbbreviated(1_234_567) == "1235k")
        #expect(CountFormatter.superclusterAbbreviated(12_345_678) == "12346k")
        #expect(CountFormatter.abbreviated(1_234_567) == "1.2M")
    }

    @Test(
        "millions continue the same pattern",
        arguments: [
            (1_000_000, "1M"), (1_234_567, "1.2M"), (1_250_000, "1.3M"), (9_960_000, "10M"), (12_345_678, "12M"),
            (123_456_789, "123M"),
        ])
    func millions(count: Int, expected: String) {
        #expect(CountFormatter.abbreviated(count) == expected)
    }

    /// Where millions would round to 1000M, a count says a billion, and billions go on alike.
    @Test(
        arguments: [
            (999_499_999, "999M"), (999_500_000, "1B"), (1_000_000_000, "1B"), (1_250_000_000, "1.3B"),
            (9_950_000_000, "10B"), (12_345_678_901, "12B"),
        ])
    func billions(count: Int, expected: String) {
        #expect(CountFormatter.abbreviated(count) == expected)
    }
}
