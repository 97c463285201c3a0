import DeclutterCore
import Testing

@Suite struct EscapedForTerminalTests {
    @Test func printableASCIIIsKept() {
        #expect("IDAT chunk, 42 % [ok] ~".escapedForTerminal == "IDAT chunk, 42 % [ok] ~")
    }

    /// A file's ESC [2J would clear the screen of whoever reads the message.
    @Test func controlCharactersAreEscaped() {
        #expect("\u{1B}[2J".escapedForTerminal == "\\u{1B}[2J")
        #expect("a\tb\r\nc\0\u{7F}".escapedForTerminal == "a\\u{9}b\\u{D}\\u{A}c\\u{0}\\u{7F}")
        // C1 controls (U+009B is a one-character CSI on some terminals) and bidirectional overrides.
        #expect("\u{9B}2J\u{202E}".escapedForTerminal == "\\u{9B}2J\\u{202E}")
    }

    @Test func nonASCIIAndBackslashesAreEscaped() {
        #expect("Zürich 東京".escapedForTerminal == "Z\\u{FC}rich \\u{6771}\\u{4EAC}")
        #expect("a\\u{1B}".escapedForTerminal == "a\\\\u{1B}")
        #expect("".escapedForTerminal == "")
    }
}
