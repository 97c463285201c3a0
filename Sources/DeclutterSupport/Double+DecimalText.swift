extension Double {
    /// The number a data file's text means: decimal only. Swift's `Double(_:)` also reads hexadecimal (`0x10` is 16,
    /// `0XA0` 160), which in a data file is text, an airport's code or an id, never a number.
    public init?<Text: StringProtocol>(decimalText text: Text) {
        guard !text.contains(where: { $0 == "x" || $0 == "X" }), let value = Double(String(text)) else { return nil }
        self = value
    }
}
