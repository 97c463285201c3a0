/// Text read from files is quoted in messages printed to a terminal; a byte such as ESC there would let the file
/// clear the screen, move the cursor or retitle the window.
extension String {
    /// This text with everything but printable ASCII written as a Swift escape, so that it can be printed to a terminal
    /// safely: control characters, DEL and every non-ASCII scalar become `\u{…}` (upper-case hex, `ESC` is `\u{1B}`,
    /// `é` is `\u{E9}`) and a backslash becomes `\\`, so that the escaped text reads back unambiguously.
    ///
    /// ```swift
    /// "\u{1B}[2J".escapedForTerminal   // \u{1B}[2J, as plain characters
    /// ```
    public var escapedForTerminal: String {
        var escaped = ""
        escaped.reserveCapacity(utf8.count)
        for scalar in unicodeScalars {
            switch scalar.value {
            case 0x5C: escaped += "\\\\"
            case 0x20...0x7E: escaped.unicodeScalars.append(scalar)
            default: escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return escaped
    }
}
