import DeclutterSupport
import Foundation
import Testing

@Suite struct JSONParserTests {
    func parse(_ text: String) throws -> JSONValue { try JSONParser.parse(Data(text.utf8)) }

    @Test func valuesKeepTheirKeysInOrder() throws {
        let value = try parse(
            #" {"b": [1, -2.5e3, true, false, null], "a": {"z": "x\"\u00e9\ud83d\ude00\n"}, "c": []} "#)
        guard case let .object(object) = value else {
            Issue.record("not an object")
            return
        }
        #expect(object.keys == ["b", "a", "c"])
        #expect(object["b"] == .array([.number(1), .number(-2500), .bool(true), .bool(false), .null]))
        #expect(object["a"] == .object(JSONObject([("z", .string("x\"é😀\n"))])))
        #expect(object["c"] == .array([]))
    }

    @Test func numbersReadAsTheStandardLibraryReadsThem() throws {
        // Short decimals take the exact fast path; long ones, exponents and big integers the standard parser.
        var state: UInt64 = 7
        var texts = [
            "0", "-0", "0.1", "0.30000000000000004", "123456789012345", "1234567890123456789012", "1e-7", "2.5E+10",
            "-73.98765432109876", "179.99999999999997", "4.9e-324", "1.7976931348623157e308", "0.000001234",
        ]
        for _ in 0..<2000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let value = Double(Int64(bitPattern: state) % 36_000_000_000) / pow(10, Double(state >> 60))
            texts.append("\(value)")
            texts.append(String(format: "%.6f", value))
        }
        for text in texts {
            #expect(try parse(text) == .number(Double(text)!), "\(text)")
        }
    }

    @Test func syntaxErrorsNameLineAndColumn() {
        let cases: [(String, String)] = [
            ("{\n  \"a\": 1,\n  \"b\" 2\n}", "line 3, column 7: expected ':' after the key"),
            ("[1, 2", "line 1, column 6: expected ',' or ']' in an array"),
            ("{\"é\": tru}", "line 1, column 7: expected a value"),
            ("[1] x", "line 1, column 5: unexpected text after the value"),
            ("\"a\u{01}\"", "line 1, column 3: a control character inside a string"),
            ("01", "line 1, column 2: unexpected text after the value"),
            ("1.", "line 1, column 3: expected a digit after '.'"),
            ("", "line 1, column 1: unexpected end of the text"),
            (String(repeating: "[", count: 600), "line 1, column 513: nested deeper than 512 levels"),
        ]
        for (text, message) in cases {
            #expect(throws: JSONSyntaxError.self, "\(text.prefix(20))") { try parse(text) }
            do { _ = try parse(text) } catch { #expect("\(error)" == message) }
        }
    }

    /// A string holding bytes that are not UTF-8 is refused at the first of them, parsed or skipped, rather than read
    /// with U+FFFD in its place.
    @Test func stringsThatAreNotUTF8AreRefused() {
        let cases: [(Data, String)] = [
            (
                Data(#"{"name": "Caf"#.utf8) + [0xE9] + Data(#""}"#.utf8),
                "line 1, column 14: byte 0xE9 (\"é\" in Latin-1) in a string is not UTF-8"
            ),
            (Data("[\n\"ab".utf8) + [0x80] + Data("\"]".utf8), "line 2, column 4: byte 0x80 in a string is not UTF-8"),
            (
                Data(#"["x\n"#.utf8) + [0xC3] + Data(#""]"#.utf8),
                "line 1, column 6: byte 0xC3 (\"Ã\" in Latin-1) in a string is not UTF-8"
            ),
        ]
        for (data, message) in cases {
            do {
                _ = try JSONParser.parse(data)
                Issue.record("parsed: \(message)")
            } catch { #expect("\(error)" == message) }
            do {
                try JSONParser.read(data) { (parser: inout JSONParser) throws in
                    try parser.skip()
                    try parser.end()
                }
                Issue.record("skipped: \(message)")
            } catch { #expect("\(error)" == message) }
        }
    }

    /// Skipping reads past a value as parsing would, and finds the same syntax errors at the same places.
    @Test func skippingChecksWhatParsingChecks() throws {
        let text = #"{"a": [1, -2.5e3, {"b": "x\"y\u00e9"}], "c": null, "d": true} "#
        try JSONParser.read(Data(text.utf8)) { (parser: inout JSONParser) throws in
            try parser.skip()
            try parser.end()
        }
        for text in [
            "{\n  \"a\": 1,\n  \"b\" 2\n}", "[1, 2", "{\"é\": tru}", "\"a\u{01}\"", "1.", "", "[[[1]]", "{\"a\":}",
        ] {
            var parsed = "", skipped = ""
            do { _ = try parse(text) } catch { parsed = "\(error)" }
            do {
                try JSONParser.read(Data(text.utf8)) { (parser: inout JSONParser) throws in
                    try parser.skip()
                    try parser.end()
                }
            } catch { skipped = "\(error)" }
            #expect(!skipped.isEmpty && skipped == parsed, "\(text)")
        }
    }
}
