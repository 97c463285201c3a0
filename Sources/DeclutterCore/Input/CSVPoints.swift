import Foundation

extension PointReader {
    /// CSV with a header row naming the latitude (`lat`, `latitude`) and longitude (`lon`, `lng`, `longitude`)
    /// columns in any case; other columns become properties (unquoted numbers as numbers). Read in one pass
    /// over the bytes, quotes and embedded newlines as RFC 4180 has them.
    func readCSV(_ data: Data, file: String) throws -> Result {
        var result = Result(points: [], skipped: 0, problems: [])
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            var parser = CSVParser(bytes: raw.bindMemory(to: UInt8.self))
            guard let header = parser.nextRecord() else {
                throw InputError(file: file, location: nil, message: "the file is empty; expected a header row")
            }
            let names = header.fields.map { String($0.text.trimmingSpaces) }
            let lowered = names.map { $0.lowercased() }
            guard let latitudeColumn = lowered.firstIndex(where: { $0 == "lat" || $0 == "latitude" }),
                  let longitudeColumn = lowered.firstIndex(where: { $0 == "lon" || $0 == "lng" || $0 == "longitude" }) else {
                throw InputError(file: file, location: "line 1",
                                 message: "the header must name a latitude column (lat, latitude) and a longitude column (lon, lng, longitude)")
            }
            while let record = parser.nextRecord() {
                let location = "line \(record.line)"
                guard !record.unclosedQuote else {
                    try reject(location, "a quoted field opens here and is not closed before the end of the file", file: file, into: &result)
                    continue
                }
                if record.fields.count == 1 && record.fields[0].text.isEmpty { continue }   // blank line
                guard record.fields.count == names.count else {
                    try reject(location, "expected \(names.count) fields, found \(record.fields.count)", file: file, into: &result)
                    continue
                }
                let latitude = Double(record.fields[latitudeColumn].text.trimmingSpaces)
                let longitude = Double(record.fields[longitudeColumn].text.trimmingSpaces)
                if let message = Self.problem(longitude: longitude, latitude: latitude) {
                    let detail = latitude == nil ? "latitude \"\(record.fields[latitudeColumn].text)\" is not a number"
                        : longitude == nil ? "longitude \"\(record.fields[longitudeColumn].text)\" is not a number" : message
                    try reject(location, detail, file: file, into: &result)
                    continue
                }
                var properties = JSONObject()
                for (column, field) in record.fields.enumerated() where column != latitudeColumn && column != longitudeColumn {
                    properties[names[column]] = field.value
                }
                result.points.append(point(longitude: longitude ?? 0, latitude: latitude ?? 0, properties: properties, id: nil))
            }
        }
        return result
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs, as `trimmingCharacters(in: .whitespaces)` has them
    /// (tab and Unicode's space separators), without a detour through NSString: a million rows read twice as fast.
    var trimmingSpaces: Substring {
        // Most fields start and end with a printable ASCII character: nothing to trim.
        if let first = utf8.first, let last = utf8.last, (0x21..<0x80).contains(first), (0x21..<0x80).contains(last) { return self[...] }
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

        /// Unquoted numbers as numbers, unquoted empty fields as null, everything else as text.
        var value: JSONValue {
            if quoted { return .string(text) }
            if text.isEmpty { return .null }
            if let number = Double(text), number.isFinite { return .number(number) }
            return .string(text)
        }
    }

    struct Record {
        var fields: [Field]
        /// The line the record starts on, from 1.
        var line: Int
        /// The file ended inside a quoted field (which then took in the rest of the file).
        var unclosedQuote = false
    }

    let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var line = 1

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        // A UTF-8 byte-order mark is not part of the first column's name.
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { position = 3 }
    }

    mutating func nextRecord() -> Record? {
        guard position < bytes.count else { return nil }
        let startLine = line
        var fields: [Field] = []
        var current: [UInt8] = []
        var quoted = false, inQuotes = false
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
            switch byte {
            case UInt8(ascii: "\""):
                inQuotes = true
                quoted = true
            case UInt8(ascii: ","):
                fields.append(Field(text: String(decoding: current, as: UTF8.self), quoted: quoted))
                current.removeAll(keepingCapacity: true)
                quoted = false
            case UInt8(ascii: "\n"):
                line += 1
                fields.append(Field(text: String(decoding: current, as: UTF8.self), quoted: quoted))
                return Record(fields: fields, line: startLine)
            case UInt8(ascii: "\r"):
                break
            default:
                current.append(byte)
            }
        }
        fields.append(Field(text: String(decoding: current, as: UTF8.self), quoted: quoted))
        return Record(fields: fields, line: startLine, unclosedQuote: inQuotes)
    }
}
