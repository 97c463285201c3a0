extension UInt8 {
    /// The byte as messages write it: `0xE9`, `0x0A`.
    package var hexText: String { "0x" + (self < 0x10 ? "0" : "") + String(self, radix: 16, uppercase: true) }

    /// What the byte reads as in Latin-1, for messages about text that is not UTF-8: ` ("é" in Latin-1)` for a
    /// printable byte over 0x9F, empty otherwise.
    package var latin1Hint: String { self >= 0xA0 ? " (\"\(Character(Unicode.Scalar(self)))\" in Latin-1)" : "" }
}
