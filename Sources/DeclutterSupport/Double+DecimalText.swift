extension Double {
    /// The number a data file's text means: decimal only. Swift's `Double(_:)` also reads hexadecimal (`0x10` is 16,
    /// `0XA0` 160), which in a data file is text, an airport's code or an id, never a number.
    // Inlinable, so that each caller's String or Substring is read directly rather than through the protocol.
    @inlinable
    public init?<Text: StringProtocol>(decimalText text: Text) {
        // Bytes, not characters: a million coordinates' worth of grapheme breaking (and a copy of each) was most of
        // reading a CSV of points. "x" and "X" are one byte each in UTF-8, so the answer is the same.
        guard !text.utf8.contains(where: { $0 == UInt8(ascii: "x") || $0 == UInt8(ascii: "X") }),
            let value = Double(text)
        else { return nil }
        self = value
    }
}
