import DeclutterSupport
import Testing

/// Text read from files and bodies: valid UTF-8 is taken as it is, anything else is found and said, not repaired.
@Suite struct ValidUTF8Tests {
    func text(_ bytes: [UInt8]) -> String? { bytes.withUnsafeBufferPointer(String.init(validUTF8:)) }

    @Test func validTextIsTakenAsItIs() {
        #expect(text([]) == "")
        #expect(text(Array("München".utf8)) == "München")
        #expect(text(Array("a😀".utf8)) == "a😀")
        // U+FFFD written in the text is valid, not a repair.
        #expect(text(Array("x\u{FFFD}y".utf8)) == "x\u{FFFD}y")
    }

    @Test(
        arguments: [
            ([0x4D, 0xFC, 0x6E], 1),  // Latin-1 ü
            ([0x61, 0xC3], 1),  // cut short at the end
            ([0x80, 0x61], 0),  // a stray continuation byte
            ([0x61, 0x62, 0xC0, 0xAF], 2),  // an overlong slash
            ([0xED, 0xA0, 0x80], 0),  // a surrogate
        ] as [([UInt8], Int)])
    func invalidTextIsRefusedAtItsFirstBadByte(bytes: [UInt8], offset: Int) {
        #expect(text(bytes) == nil)
        #expect(bytes.firstInvalidUTF8Offset == offset)
    }
}
