import Foundation

/// A JSON (RFC 8259) reader over UTF-8 bytes that builds ``JSONValue``s with object keys in file order, and can hand
/// over a large array one element at a time.
///
/// Foundation's `JSONSerialization` took 9 s and 1.9 GB for a 27 MB GeoJSON file of 200,000 points on Linux (every
/// number becomes an `NSNumber` read through `Decimal`, every object an `NSDictionary` then cast back); reading the
/// features one by one keeps memory to the points themselves. Syntax errors name the line and column.
public struct JSONParser: ~Copyable {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    /// Arrays and objects open around the cursor; deeper nesting is refused rather than overflowing the stack.
    private var depth = 0
    static let maximumDepth = 512

    /// Parses a whole document.
    public static func parse(_ data: Data) throws -> JSONValue {
        try read(data) { (parser: inout JSONParser) throws -> JSONValue in
            let value = try parser.value()
            try parser.end()
            return value
        }
    }

    /// Runs `body` with a parser over `data`'s bytes; syntax errors are ``JSONSyntaxError``s, and whatever `body`
    /// throws passes through.
    public static func read<T>(_ data: Data, _ body: (inout JSONParser) throws -> T) throws -> T {
        try data.withUnsafeBytes { raw in
            var parser = JSONParser(bytes: raw.bindMemory(to: UInt8.self))
            return try body(&parser)
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        // A byte-order mark is allowed before the text.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
    }

    /// Whether the next value is an object.
    public mutating func atObject() -> Bool {
        skipSpace()
        return peek == UInt8(ascii: "{")
    }
    /// Whether the next value is an array.
    public mutating func atArray() -> Bool {
        skipSpace()
        return peek == UInt8(ascii: "[")
    }

    /// Reads an object member by member: `body` gets each key with the parser at its value, and must read the value.
    public mutating func members(_ body: (String, inout JSONParser) throws -> Void) throws {
        try open(UInt8(ascii: "{"))
        skipSpace()
        if peek == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return
        }
        while true {
            skipSpace()
            guard peek == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let key = try string()
            skipSpace()
            guard peek == UInt8(ascii: ":") else { throw error("expected ':' after the key") }
            position += 1
            try body(key, &self)
            skipSpace()
            switch peek {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                depth -= 1
                return
            default: throw error("expected ',' or '}' in an object")
            }
        }
    }

    /// Reads an array element by element: `body` gets each index with the parser at its element, and must read it.
    public mutating func elements(_ body: (Int, inout JSONParser) throws -> Void) throws {
        try open(UInt8(ascii: "["))
        skipSpace()
        if peek == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return
        }
        var index = 0
        while true {
            try body(index, &self)
            index += 1
            skipSpace()
            switch peek {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                depth -= 1
                return
            default: throw error("expected ',' or ']' in an array")
            }
        }
    }

    /// Reads one value of any kind.
    public mutating func value() throws -> JSONValue {
        skipSpace()
        guard let next = peek else { throw error("unexpected end of the text") }
        switch next {
        case UInt8(ascii: "{"):
            var object = JSONObject()
            try members { (key, parser) throws in
                // Readers disagree on a repeated key (first or last wins), so it is refused rather than guessed.
                guard object[key] == nil else { throw parser.repeatedKey(key) }
                object[key] = try parser.value()
            }
            return .object(object)
        case UInt8(ascii: "["):
            var array: [JSONValue] = []
            try elements { (_, parser) throws in array.append(try parser.value()) }
            return .array(array)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("expected a value")
        }
    }

    /// Reads past one value of any kind, checking its syntax and keeping nothing: to count a large array's elements
    /// before any is built.
    public mutating func skip() throws {
        skipSpace()
        guard let next = peek else { throw error("unexpected end of the text") }
        switch next {
        case UInt8(ascii: "{"): try members { (_, parser) throws in try parser.skip() }
        case UInt8(ascii: "["): try elements { (_, parser) throws in try parser.skip() }
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try number()
        default: _ = try value()
        }
    }

    /// Moves past white space and record separators (U+001E, which begins each text of a JSON text sequence, RFC 7464)
    /// and says whether another value follows: for reading a sequence of values, one a line (newline-delimited JSON)
    /// or each after a separator.
    public mutating func anotherInSequence() -> Bool {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09, 0x1E: position += 1
            default: return true
            }
        }
        return false
    }

    /// The line the cursor is on, from 1, counting on from `known`, an earlier line and the offset it begins at, so
    /// that a reader asking value after value counts each byte once; returns the line and the offset it begins at.
    public func line(after known: (line: Int, start: Int)) -> (line: Int, start: Int) {
        var (line, start) = known
        for index in known.start..<min(position, bytes.count) where bytes[index] == 0x0A {
            line += 1
            start = index + 1
        }
        return (line, start)
    }

    /// Checks that only white space follows.
    public mutating func end() throws {
        skipSpace()
        guard position == bytes.count else { throw error("unexpected text after the value") }
    }

    // MARK: - Pieces

    private var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func open(_ bracket: UInt8) throws {
        skipSpace()
        guard peek == bracket else {
            throw error(bracket == UInt8(ascii: "{") ? "expected an object" : "expected an array")
        }
        guard depth < Self.maximumDepth else { throw error("nested deeper than \(Self.maximumDepth) levels") }
        depth += 1
        position += 1
    }

    private mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func literal(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        guard bytes.count - position >= count,
            memcmp(bytes.baseAddress! + position, word.utf8Start, count) == 0
        else { throw error("expected a value") }
        position += count
    }

    /// A number, exactly as `strtod` reads it: up to 15 digits without an exponent are one exact integer divided by an
    /// exact power of ten (so rounded once, correctly); anything else goes through the standard library's parser.
    private mutating func number() throws -> Double {
        let start = position
        var negative = false
        if bytes[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        var mantissa: UInt64 = 0, digits = 0, fractionDigits = 0
        guard let first = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            throw error("expected a digit")
        }
        if first == UInt8(ascii: "0") {
            position += 1
        } else {
            while let digit = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) {
                if digits < 19 { mantissa = mantissa * 10 + UInt64(digit - UInt8(ascii: "0")) }
                digits += 1
                position += 1
            }
        }
        if peek == UInt8(ascii: ".") {
            position += 1
            guard let digit = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else {
                throw error("expected a digit after '.'")
            }
            while let digit = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) {
                if digits < 19 { mantissa = mantissa * 10 + UInt64(digit - UInt8(ascii: "0")) }
                digits += 1
                fractionDigits += 1
                position += 1
            }
        }
        var exponent = false
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            exponent = true
            position += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { position += 1 }
            guard let digit = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else {
                throw error("expected a digit in the exponent")
            }
            while let digit = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) { position += 1 }
        }
        if !exponent && digits <= 15 {
            // Both the mantissa (below 10^15 < 2^53) and the power of ten are exact doubles, so one division rounds
            // once.
            let magnitude = Double(mantissa) / Self.powersOfTen[fractionDigits]
            return negative ? -magnitude : magnitude
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let value = Double(text) else { throw error("the number \(text) cannot be read") }
        guard value.isFinite else {
            position = start
            throw error("the number \(text) is too large")
        }
        return value
    }

    private static let powersOfTen: [Double] = (0...22).map { pow(10, Double($0)) }

    private mutating func string() throws -> String {
        position += 1  // the opening quote
        let start = position
        // Fast path: no escapes.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let text = try utf8(UnsafeBufferPointer(rebasing: bytes[start..<position]), raw: start..<position)
                position += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw error("a control character inside a string") }
            position += 1
        }
        var scalars = Array(bytes[start..<position])
        while true {
            guard let byte = peek else { throw error("a string without its closing quote") }
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return try scalars.withUnsafeBufferPointer { try utf8($0, raw: start..<position - 1) }
            case UInt8(ascii: "\\"):
                guard let escape = peek else { throw error("a string without its closing quote") }
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escape)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hexQuad()
                    if (0xD800..<0xDC00).contains(code), bytes.count - position >= 6,
                        bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
                    {
                        position += 2
                        let low = try hexQuad()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("an unpaired surrogate escape") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    // A lone surrogate becomes U+FFFD, as JSON.parse keeps it but UTF-8 cannot.
                    scalars.append(contentsOf: String(Character(Unicode.Scalar(code) ?? "\u{FFFD}")).utf8)
                default: throw error("an unknown escape \\\(Character(Unicode.Scalar(escape)))")
                }
            default:
                guard byte >= 0x20 else { throw error("a control character inside a string") }
                scalars.append(byte)
            }
        }
    }

    /// A string's bytes as text, or an error at the first byte of the string's source, `bytes[raw]`, that is not
    /// UTF-8: JSON is UTF-8 (RFC 8259 §8.1), and decoding with U+FFFD in its place would change a name silently.
    ///
    /// The source and the decoded bytes are invalid at the same bytes: escapes are ASCII in the one and begin with an
    /// ASCII or leading byte in the other, never a continuation byte, so the error is found in the source, where the
    /// message can point.
    private mutating func utf8(_ string: UnsafeBufferPointer<UInt8>, raw: Range<Int>) throws -> String {
        if let text = String(validUTF8: string) { return text }
        position = raw.lowerBound + (UnsafeBufferPointer(rebasing: bytes[raw]).firstInvalidUTF8Offset ?? 0)
        let byte = bytes[position]
        throw error("byte \(byte.hexText)\(byte.latin1Hint) in a string is not UTF-8")
    }

    private mutating func hexQuad() throws -> UInt32 {
        guard bytes.count - position >= 4 else { throw error("expected four hex digits after \\u") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("expected four hex digits after \\u")
            }
            code = code << 4 | digit
            position += 1
        }
        return code
    }

    /// The error for a key an object already has: readers disagree on which value wins, so it is refused.
    package func repeatedKey(_ key: String) -> JSONSyntaxError {
        error("the key \"\(key.escapedForTerminal)\" appears twice in this object")
    }

    /// An error at the cursor, with its line and column (counted in characters from 1).
    func error(_ message: String) -> JSONSyntaxError {
        var line = 1, lineStart = 0
        let end = min(position, bytes.count)
        for index in 0..<end where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        let column = String(decoding: UnsafeBufferPointer(rebasing: bytes[lineStart..<end]), as: UTF8.self).count + 1
        return JSONSyntaxError(line: line, column: column, message: message)
    }
}

/// Text that is not valid JSON: where and why.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Line, from 1.
    public var line: Int
    /// Column in characters, from 1.
    public var column: Int
    /// What was expected or found.
    public var message: String

    /// `line 3, column 14: expected ',' or '}' in an object`.
    public var description: String { "line \(line), column \(column): \(message)" }
}

extension JSONSyntaxError: DeclutterError {
    /// Text that is not JSON is bad input.
    public var kind: FailureKind { .badInput }
}
