import DeclutterSupport
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

    /// Names in any script stay readable; only what a terminal would act on, or not show, is escaped.
    @Test func lettersOfEveryScriptAreKept() {
        #expect("Zürich 東京 ≥ × …".escapedForTerminal == "Zürich 東京 ≥ × …")
        #expect("a\u{200B}b\u{2028}".escapedForTerminal == "a\\u{200B}b\\u{2028}")
        #expect("".escapedForTerminal == "")
    }
}
