import DeclutterClustering
import DeclutterGeometry
import DeclutterSupport
import Foundation

extension PointReader {
    /// Names of a latitude column, in any case; `y` only counts when none of these is there.
    static let latitudeNames = ["lat", "latitude", "latitude_deg", "lat_deg"]
    /// Names of a longitude column, in any case; `x` only counts when none of these is there.
    static let longitudeNames = ["lon", "lng", "long", "longitude", "longitude_deg", "lon_deg"]
    /// The separators a header is searched for when none is given, most likely first.
    static let detectedDelimiters: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t")]

    /// CSV with a header row naming the latitude and longitude columns (see ``latitudeNames``, ``longitudeNames``,
    /// or ``latitudeColumn`` and ``longitudeColumn``); other columns become properties (unquoted numbers as
    /// numbers). Fields are separated by ``delimiter`` or the one the header line uses. Read in one pass over the
    /// bytes, quotes and embedded newlines as RFC 4180 has them.
    ///
    /// A file of two megabytes or more is read on every core
    /// (``readRecords(_:from:line:header:file:parts:minimumRunBytes:opensFile:)``).
    func readCSV(_ data: Data, file: String, parts: Int = Cores.available, minimumRunBytes: Int = 1 << 20) throws
        -> Result
    {
        let separator = try csvSeparator(file: file)
        return try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard let (header, bodyStart, line) = try readCSVHeader(bytes, separator: separator, file: file) else {
                throw InputError(file: file, location: nil, message: "the file is empty; expected a header row")
            }
            return try readRecords(
                bytes, from: bodyStart, line: line, header: header, file: file, parts: parts,
                minimumRunBytes: minimumRunBytes)
        }
    }

    /// A CSV's header as read: what separates fields, the columns' names and where the coordinates are.
    struct CSVHeader {
        let delimiter: UInt8
        let names: [String]
        let columns: (latitude: Int, longitude: Int)

        /// The properties whose keys every row shares, made once for the file (a stream's chunks too): the columns
        /// but the coordinates' (a repeated name keeps its first place), with each column's place among them.
        let keys: (template: JSONObject, places: [Int])

        init(delimiter: UInt8, names: [String], columns: (latitude: Int, longitude: Int)) {
            self.delimiter = delimiter
            self.names = names
            self.columns = columns
            var template = JSONObject()
            for (column, name) in names.enumerated() where column != columns.latitude && column != columns.longitude {
                template[name] = .null
            }
            keys = (template, names.map { template.place(of: $0) ?? 0 })
        }
    }

    /// ``delimiter`` as a byte, nil when not given.
    ///
    /// - Throws: ``InputError`` when it is not one ASCII character other than a quote or a line break.
    func csvSeparator(file: String) throws -> UInt8? {
        guard let delimiter else { return nil }
        guard let ascii = delimiter.asciiValue, !["\"", "\n", "\r"].contains(delimiter) else {
            throw InputError(
                file: file, location: nil,
                message:
                    "the delimiter must be one ASCII character other than a quote or a line break, got \"\(delimiter)\""
            )
        }
        return ascii
    }

    /// The header record at the start of `bytes`, where the records after it start and the line they start on; nil when
    /// there is no record at all.
    func readCSVHeader(_ bytes: UnsafeBufferPointer<UInt8>, separator: UInt8?, file: String) throws
        -> (header: CSVHeader, bodyStart: Int, line: Int)?
    {
        var parser = CSVParser(
            bytes: bytes, delimiter: separator ?? CSVParser.likelyDelimiter(bytes, among: Self.detectedDelimiters))
        let headerStart = parser.position
        guard let header = parser.nextRecord() else { return nil }
        let headerLine = String(decoding: bytes[headerStart..<parser.position], as: UTF8.self)
            .trimmingCharacters(in: .newlines)
        let names = header.fields.map { String($0.text.trimmingSpaces) }
        let columns = try coordinateColumns(names, headerLine: headerLine, delimiter: parser.delimiter, file: file)
        return (CSVHeader(delimiter: parser.delimiter, names: names, columns: columns), parser.position, parser.line)
    }

    /// The points of the records in `bytes[start...]`, the first on `line`.
    ///
    /// Bytes of `2 * minimumRunBytes` or more are read on every core: they are cut into runs of whole records
    /// (``CSVParser/recordRuns(_:from:line:parts:)``), each read as one pass would read it from there, and the runs'
    /// points, skips and first error joined in file order — the same result as one pass.
    ///
    /// `opensFile` says the records are the file's first: only there does a coordinate that is valid swapped get the
    /// hint that the columns are swapped.
    func readRecords(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, line: Int, header: CSVHeader, file: String,
        parts: Int = Cores.available, minimumRunBytes: Int = 1 << 20, opensFile: Bool = true
    ) throws -> Result {
        let bodyBytes = bytes.count - start
        let runs = CSVParser.recordRuns(
            bytes, from: start, line: line,
            parts: bodyBytes >= 2 * minimumRunBytes ? min(parts, bodyBytes / minimumRunBytes) : 1)
        let read = concurrentMap(runs.count) { run -> Swift.Result<Result, Error> in
            var rows = CSVParser(
                bytes: UnsafeBufferPointer(rebasing: bytes[runs[run].range]), delimiter: header.delimiter,
                line: runs[run].line)
            return Swift.Result { try readRows(&rows, header: header, file: file, opensFile: opensFile && run == 0) }
        }
        // The first error in file order is the first run's that failed; one run is the result as it is.
        let parts = try read.map { try $0.get() }
        var result = parts[0]
        guard parts.count > 1 else { return result }
        result.points.reserveCapacity(parts.reduce(0) { $0 + $1.points.count })
        for part in parts.dropFirst() { result.append(part) }
        return result
    }

    /// The points of the records `parser` has left, after `header`, their properties sharing its keys (a repeated
    /// column name keeps the row's last value).
    private func readRows(_ parser: inout CSVParser, header: CSVHeader, file: String, opensFile: Bool) throws -> Result
    {
        var result = Result(points: [], skipped: 0, problems: [])
        let names = header.names, keys = header.keys, (latitudeColumn, longitudeColumn) = header.columns
        // Spreadsheets in much of Europe write `50,5;10,25`: where the comma is not the separator, it may be the
        // decimal mark.
        let decimalComma = parser.delimiter != UInt8(ascii: ",")
        func coordinate(_ text: String) -> Double? {
            let trimmed = text.trimmingSpaces
            if let value = Double(decimalText: trimmed) { return value }
            guard decimalComma, trimmed.utf8.filter({ $0 == UInt8(ascii: ",") }).count == 1, !trimmed.contains(".")
            else { return nil }
            return Double(decimalText: trimmed.replacingOccurrences(of: ",", with: "."))
        }
        while let record = parser.nextRecord() {
            let location = "line \(record.line)"
            guard !record.unclosedQuote else {
                try reject(
                    location, "a quoted field opens here and is not closed before the end of the file", file: file,
                    into: &result)
                continue
            }
            // The first 64 KB were checked before reading; a byte beyond them that is not UTF-8 would otherwise be
            // read as U+FFFD in a name or category, silently.
            if let (byte, field) = record.notUTF8 {
                let column = field < names.count ? " (\(names[field]))" : ""
                throw PointFormat.csv.codePageError(
                    byte: byte, in: "field \(field + 1)\(column): byte \(byte.hexText)", file: file,
                    location: location)
            }
            if record.fields.count == 1 && record.fields[0].text.isEmpty { continue }  // blank line
            guard record.fields.count == names.count else {
                try reject(
                    location, "expected \(names.count) fields, found \(record.fields.count)", file: file, into: &result)
                continue
            }
            let latitude = coordinate(record.fields[latitudeColumn].text)
            let longitude = coordinate(record.fields[longitudeColumn].text)
            if let message = Self.problem(longitude: longitude, latitude: latitude) {
                var detail =
                    latitude == nil
                    ? "latitude \"\(record.fields[latitudeColumn].text)\" is not a number"
                    : longitude == nil
                        ? "longitude \"\(record.fields[longitudeColumn].text)\" is not a number" : message
                if opensFile, result.points.isEmpty, result.skipped == 0,
                    Self.looksSwapped(longitude: longitude, latitude: latitude)
                {
                    detail +=
                        "; the columns look swapped: try --lat \(names[longitudeColumn]) --lon \(names[latitudeColumn])"
                }
                try reject(location, detail, file: file, into: &result)
                continue
            }
            var values = [JSONValue](repeating: .null, count: keys.template.count)
            for (column, field) in record.fields.enumerated()
            where column != latitudeColumn && column != longitudeColumn {
                values[keys.places[column]] = field.value
            }
            result.points.append(
                point(
                    longitude: longitude ?? 0, latitude: latitude ?? 0,
                    properties: JSONObject(keysOf: keys.template, values: values), id: nil))
            result.origins.append(Int32(clamping: record.line))
        }
        return result
    }

    /// The latitude and longitude columns: the ones named by ``latitudeColumn`` and ``longitudeColumn``, else the
    /// first with a usual name, else `y` and `x`.
    private func coordinateColumns(_ names: [String], headerLine: String, delimiter: UInt8, file: String) throws -> (
        latitude: Int, longitude: Int
    ) {
        let lowered = names.map { $0.lowercased() }
        func fail(_ message: String) -> InputError { InputError(file: file, location: "line 1", message: message) }
        func named(_ given: String?, option: String) throws -> Int? {
            guard let given else { return nil }
            guard let column = lowered.firstIndex(of: String(given.trimmingSpaces).lowercased()) else {
                throw fail(
                    "\(option) \"\(given.escapedForTerminal)\" is not a column; the header's columns are "
                        + names.nameList(quoted: true)
                        + Self.otherSeparatorHint(headerLine, used: delimiter, lead: ". The header"))
            }
            return column
        }
        func usual(_ candidates: [String], _ fallback: String) -> Int? {
            lowered.firstIndex(where: candidates.contains) ?? lowered.firstIndex(of: fallback)
        }
        let latitude = try named(latitudeColumn, option: "--lat") ?? usual(Self.latitudeNames, "y")
        let longitude = try named(longitudeColumn, option: "--lon") ?? usual(Self.longitudeNames, "x")
        if let latitude, let longitude {
            guard latitude != longitude else {
                throw fail("--lat and --lon name the same column, \"\(names[latitude])\"")
            }
            // Two columns of one name: which holds the coordinate cannot be told.
            for (column, option) in [(latitude, "--lat"), (longitude, "--lon")] {
                let same = lowered.indices.filter { lowered[$0] == lowered[column] }
                guard same.count == 1 else {
                    throw fail(
                        "columns \(same.map { String($0 + 1) }.joined(separator: " and ")) are both named \"\(names[column].escapedForTerminal)\"; "
                            + "expected one column of each name (rename one, or give \(option) with the other's name)")
                }
            }
            return (latitude, longitude)
        }
        let missing =
            latitude == nil && longitude == nil
            ? "latitude or longitude column" : latitude == nil ? "latitude column" : "longitude column"
        let shown = headerLine.count > 100 ? headerLine.prefix(99) + "…" : headerLine[...]
        let described =
            "header \"\(shown.replacingOccurrences(of: "\t", with: "\\t"))\" has no \(missing) (separated by \(Self.describe(delimiter)))"
        let hint = Self.otherSeparatorHint(headerLine, used: delimiter, lead: "; it")
        if !hint.isEmpty { throw fail(described + hint) }
        let latitudeChoices = Self.latitudeNames.joined(separator: ", ") + " or y"
        let longitudeChoices = Self.longitudeNames.joined(separator: ", ") + " or x"
        let expected =
            latitude == nil && longitude == nil
            ? "expected columns named \(latitudeChoices) and \(longitudeChoices) (or give --lat and --lon)"
            : latitude == nil
                ? "expected a column named \(latitudeChoices) (or give --lat)"
                : "expected a column named \(longitudeChoices) (or give --lon)"
        throw fail("\(described); \(expected)")
    }

    /// `","`, `";"`, `tabs`: a separator as a message names it.
    static func describe(_ delimiter: UInt8) -> String {
        delimiter == UInt8(ascii: "\t") ? "tabs" : "\"\(Character(Unicode.Scalar(delimiter)))\""
    }

    /// When the header holds a likely separator other than the one used, `<lead> contains ";" — try --delimiter ';'`;
    /// else nothing. A wrong separator is the usual reason a header has no coordinate columns.
    static func otherSeparatorHint(_ headerLine: String, used: UInt8, lead: String) -> String {
        let counts = [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t"), UInt8(ascii: "|")].filter { $0 != used }
            .map { separator in (separator, headerLine.utf8.filter { $0 == separator }.count) }
        guard let (other, count) = counts.max(by: { $0.1 < $1.1 }), count > 0 else { return "" }
        let option = other == UInt8(ascii: "\t") ? "tab" : "'\(Character(Unicode.Scalar(other)))'"
        return "\(lead) contains \(describe(other)) — try --delimiter \(option)"
    }
}
