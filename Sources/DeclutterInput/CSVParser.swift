import DeclutterClustering
import DeclutterGeometry
import DeclutterSupport
import Foundation

extension String {
    /// The text without leading and trailing spaces and tabs, as `trimmingCharacters(in: .whitespaces)` has them
    /// (tab and Unicode's space separators), without a detour through NSString: a million rows read twice as fast.
    var trimmingSpaces: Substring {
        // Most fields start and end with a printable ASCII character: nothing to trim.
        if let first = utf8.first, let last = utf8.last, (0x21..<0x80).contains(first), (0x21..<0x80).contains(last) {
            return self[...]
        }
        func isSpace(_ character: Character) -> Bool {
            character.unicodeScalars.allSatisfy { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
        }
        guard let first = firstIndex(where: { !isSpace($0) }) else { return self[endIndex...] }
        let last = lastIndex(where: { !isSpace($0) }) ?? first
        return self[first...last]
    }
}

/// A byte-level CSV tokenizer.
struct CSVParser {
    struct Field {
        var text: String
        var quoted: Bool

        /// Unquoted numbers as numbers, unquoted empty fields as null, everything else as text. A whole number
        /// written with a leading zero (`00501`, `-07`) is text: a ZIP code or an id, whose zeros a number would drop.
        var value: JSONValue {
            if quoted { return .string(text) }
            if text.isEmpty { return .null }
            if !Self.isZeroPadded(text), let number = Double(decimalText: text), number.isFinite {
                return .number(number)
            }
            return .string(text)
        }

        /// Whether `text` is a whole number of two digits or more starting with 0, after any sign (`0`, `0.5` and
        /// `05.5` are not).
        static func isZeroPadded(_ text: String) -> Bool {
            let digits = text.utf8.drop { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") }
            return digits.count >= 2 && digits.first == UInt8(ascii: "0")
                && digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        }
    }

    struct Record {
        var fields: [Field]
        /// The line the record starts on, from 1.
        var line: Int
        /// The file ended inside a quoted field (which then took in the rest of the file).
        var unclosedQuote = false
        /// The first byte of the record that begins no valid UTF-8 sequence, and the field (from 0) it is in; such a
        /// field's text has U+FFFD in its place.
        var notUTF8: (byte: UInt8, field: Int)?
    }

    let bytes: UnsafeBufferPointer<UInt8>
    /// The byte between fields: `,`, `;`, tab, …
    let delimiter: UInt8
    /// Where the next record starts.
    private(set) var position = 0
    /// The line the next record starts on, from 1.
    private(set) var line = 1

    /// A parser of a whole file, from its start (after a byte-order mark).
    init(bytes: UnsafeBufferPointer<UInt8>, delimiter: UInt8 = UInt8(ascii: ",")) {
        self.bytes = bytes
        self.delimiter = delimiter
        position = Self.start(of: bytes)
    }

    /// A parser of records cut from a file (``recordRuns(_:from:line:parts:)``), the first on `line`.
    init(bytes: UnsafeBufferPointer<UInt8>, delimiter: UInt8, line: Int) {
        self.bytes = bytes
        self.delimiter = delimiter
        self.line = line
    }

    /// `bytes[start...]` cut into at most `parts` runs of whole records, about equal in bytes, each with the line
    /// it starts on (the first on `line`).
    ///
    /// A cut is moved on to just past the next line break outside quotes. Outside or inside is the count of quotes
    /// since `start`, odd inside: the parser enters a quoted field at any quote and leaves it at the next one but
    /// a doubled quote, which counts two.
    static func recordRuns(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, line: Int, parts: Int) -> [(
        range: Range<Int>, line: Int
    )] {
        var runs: [(range: Range<Int>, line: Int)] = []
        var runStart = start, runLine = line
        var position = start, inQuotes = false, lines = line
        for part in 1..<max(1, parts) {
            let target = start + (bytes.count - start) / parts * part
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                if byte == UInt8(ascii: "\"") { inQuotes.toggle() }
                if Self.endsLine(bytes, at: position - 1) {
                    lines += 1
                    if !inQuotes && position > target { break }
                }
            }
            guard position > runStart, position < bytes.count else { break }
            runs.append((runStart..<position, runLine))
            (runStart, runLine) = (position, lines)
        }
        runs.append((runStart..<bytes.count, runLine))
        return runs
    }

    /// Whether the byte at `position` ends a line: a line feed, or a carriage return not followed by one (a CR that
    /// ends the bytes is not known to, and is not counted).
    @inline(__always)
    static func endsLine(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> Bool {
        switch bytes[position] {
        case UInt8(ascii: "\n"): true
        case UInt8(ascii: "\r"): position + 1 < bytes.count && bytes[position + 1] != UInt8(ascii: "\n")
        default: false
        }
    }

    /// Where the text starts: a UTF-8 byte-order mark is not part of the first column's name.
    static func start(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    }

    /// The candidate the first line (outside quotes) holds most of; the first candidate when it holds none.
    static func likelyDelimiter(_ bytes: UnsafeBufferPointer<UInt8>, among candidates: [UInt8]) -> UInt8 {
        var counts = [Int](repeating: 0, count: candidates.count)
        var inQuotes = false
        for position in start(of: bytes)..<bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { inQuotes.toggle() }
            if inQuotes { continue }
            if endsLine(bytes, at: position) { break }
            if let index = candidates.firstIndex(of: byte) { counts[index] += 1 }
        }
        // `max(by:)` keeps the first of equals: ties go to the earlier, more usual candidate.
        guard let best = counts.indices.max(by: { counts[$0] < counts[$1] }) else { return UInt8(ascii: ",") }
        return candidates[best]
    }

    /// A field's bytes as text; the first that begins no valid UTF-8 sequence is noted in `notUTF8` (with `field`)
    /// unless one is noted already, so the record can be refused rather than read with U+FFFD in its place.
    @inline(__always)
    private func text(_ bytes: [UInt8], _ notUTF8: inout (byte: UInt8, field: Int)?, field: Int) -> String {
        if let text = bytes.withUnsafeBufferPointer(String.init(validUTF8:)) { return text }
        if notUTF8 == nil, let offset = bytes.firstInvalidUTF8Offset {
            notUTF8 = (bytes[offset], field)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    mutating func nextRecord() -> Record? {
        guard position < bytes.count else { return nil }
        let startLine = line
        var fields: [Field] = []
        var current: [UInt8] = []
        var quoted = false, inQuotes = false
        var notUTF8: (byte: UInt8, field: Int)?
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if inQuotes {
                if byte == UInt8(ascii: "\"") {
                    if position < bytes.count && bytes[position] == UInt8(ascii: "\"") {
                        current.append(byte)
                        position += 1
                    } else {
                        inQuotes = false
                    }
                } else {
                    if byte == UInt8(ascii: "\n") { line += 1 }
                    current.append(byte)
                }
                continue
            }
            if byte == delimiter {
                fields.append(Field(text: text(current, &notUTF8, field: fields.count), quoted: quoted))
                current.removeAll(keepingCapacity: true)
                quoted = false
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inQuotes = true
                quoted = true
            case UInt8(ascii: "\n"):
                line += 1
                fields.append(Field(text: text(current, &notUTF8, field: fields.count), quoted: quoted))
                return Record(fields: fields, line: startLine, notUTF8: notUTF8)
            case UInt8(ascii: "\r"):
                // Before a line feed it is part of a Windows line end; alone it ends the line, as Excel's "CSV
                // (Macintosh)" writes them (and Python's csv module reads them).
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\n") else {
                    line += 1
                    fields.append(Field(text: text(current, &notUTF8, field: fields.count), quoted: quoted))
                    return Record(fields: fields, line: startLine, notUTF8: notUTF8)
                }
            default:
                current.append(byte)
            }
        }
        fields.append(Field(text: text(current, &notUTF8, field: fields.count), quoted: quoted))
        return Record(fields: fields, line: startLine, unclosedQuote: inQuotes, notUTF8: notUTF8)
    }
}
