/// Formats cluster counts the way supercluster's `point_count_abbreviated` does, extended to millions for icons.
public enum CountFormatter {
    /// supercluster's `point_count_abbreviated` text for counts of 1,000 and more, exactly: `1k`, `1.2k`, `12k`,
    /// `1235k` (it has no millions), which the index's cluster properties and vector tiles carry so that a client's
    /// expressions written for supercluster read the same.
    public static func superclusterAbbreviated(_ count: Int) -> String {
        count >= 10_000
            ? "\(roundHalfUp(Double(count) / 1_000))k"
            : count >= 1_000 ? "\(oneDecimal(Double(count) / 100))k" : "\(count)"
    }

    /// A count with its noun, singular for one: `1 row`, `3 rows`, `2 entries`, `1 glyph range`.
    public static func counted(_ count: Int, _ noun: String) -> String {
        count == 1 ? "1 \(noun)" : "\(count) \(noun.hasSuffix("y") ? noun.dropLast() + "ie" : noun)s"
    }

    /// The abbreviated count: `999`, `1k` (1,000), `1.2k` (1,234), `12k` (12,345), `1.2M`, `12M`, `1.2B`.
    ///
    /// Below 999,500 this equals supercluster exactly, including its rounding (`Math.round`, halves up): 9,999 gives
    /// `10k`. From 999,500, where supercluster writes `1000k` (wider than the ring, and a million by another name),
    /// it gives `1M`, as 9,950 gives `10k` rather than `10.0k`; billions go on the same way.
    public static func abbreviated(_ count: Int) -> String {
        if count >= 10_000_000_000 { return "\(roundHalfUp(Double(count) / 1_000_000_000))B" }
        if count >= 999_500_000 { return "\(oneDecimal(Double(count) / 100_000_000))B" }
        if count >= 10_000_000 { return "\(roundHalfUp(Double(count) / 1_000_000))M" }
        if count >= 999_500 { return "\(oneDecimal(Double(count) / 100_000))M" }
        if count >= 10_000 { return "\(roundHalfUp(Double(count) / 1_000))k" }
        if count >= 1_000 { return "\(oneDecimal(Double(count) / 100))k" }
        return "\(count)"
    }

    /// JavaScript's `Math.round`: halves round toward positive infinity.
    private static func roundHalfUp(_ value: Double) -> Int {
        Int((value + 0.5).rounded(.down))
    }

    /// `Math.round(tenths) / 10` printed as JavaScript prints it: `1.2`, or `1` without a decimal.
    private static func oneDecimal(_ tenths: Double) -> String {
        let rounded = roundHalfUp(tenths)
        return rounded % 10 == 0 ? "\(rounded / 10)" : "\(rounded / 10).\(rounded % 10)"
    }
}
