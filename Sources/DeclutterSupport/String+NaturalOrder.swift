extension String {
    /// Whether this string comes before `other` with runs of ASCII digits compared as numbers ("k2" before "k10",
    /// "route 9" before "route 10"), the rest character by character; strings equal so ("k01", "k1") fall back to
    /// plain order, so that the order is total.
    public func inNaturalOrder(before other: String) -> Bool {
        var left = utf8[...], right = other.utf8[...]
        while let a = left.first, let b = right.first {
            if Self.isDigit(a) && Self.isDigit(b) {
                let leftRun = left.prefix(while: Self.isDigit), rightRun = right.prefix(while: Self.isDigit)
                left = left.dropFirst(leftRun.count)
                right = right.dropFirst(rightRun.count)
                // Without leading zeros, a longer run is the larger number; runs of one length compare digit by digit.
                let leftDigits = leftRun.drop { $0 == UInt8(ascii: "0") }
                let rightDigits = rightRun.drop { $0 == UInt8(ascii: "0") }
                if leftDigits.count != rightDigits.count { return leftDigits.count < rightDigits.count }
                if !leftDigits.elementsEqual(rightDigits) { return leftDigits.lexicographicallyPrecedes(rightDigits) }
            } else {
                // A digit against another byte compares as bytes: numbers sort together, between the bytes below
                // "0" and above "9", which keeps the order consistent.
                if a != b { return a < b }
                left = left.dropFirst()
                right = right.dropFirst()
            }
        }
        if left.isEmpty != right.isEmpty { return left.isEmpty }
        return self < other
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
