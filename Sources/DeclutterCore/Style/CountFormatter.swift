/// Formats cluster counts the way supercluster's `point_count_abbreviated` does, extended to millions.
public enum CountFormatter {
    /// The abbreviated count: `999`, `1k` (1,000), `1.2k` (1,234), `12k` (12,345), `1.2M`, `12M`.
    ///
    /// Below one million this equals supercluster exactly, including its rounding
    /// (`Math.round`, halves up): 9,999 gives `10k` and 999,999 gives `1000k`.
    public static func abbreviated(_ count: Int) -> String {
        if count >= 10_000_000 { return "\(roundHalfUp(Double(count) / 1_000_000))M" }
        if count >= 1_000_000 { return "\(oneDecimal(Double(count) / 100_000))M" }
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
