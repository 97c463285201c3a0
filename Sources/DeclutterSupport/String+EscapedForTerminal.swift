/// Text read from files is quoted in messages printed to a terminal; a byte such as ESC there would let the file
/// clear the screen, move the cursor or retitle the window.
extension String {
    /// This text with every control character written as a Swift escape, so that it can be printed to a terminal
    /// safely: C0 and C1 controls, DEL, and invisible format characters (bidirectional overrides, zero-width
    /// characters, line separators) become `\u{…}` in upper-case hex (`ESC` is `\u{1B}`). Letters in any script stay
    /// as they are, so a message can still name Zürich or 東京.
    ///
    /// ```swift
    /// "\u{1B}[2J".escapedForTerminal   // \u{1B}[2J, as plain characters
    /// ```
    public var escapedForTerminal: String {
        guard unicodeScalars.contains(where: Self.needsEscape) else { return self }
        var escaped = ""
        escaped.reserveCapacity(utf8.count)
        for scalar in unicodeScalars {
            if Self.needsEscape(scalar) {
                escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse: true
        default: false
        }
    }
}
