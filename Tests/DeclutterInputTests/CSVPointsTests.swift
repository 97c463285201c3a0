import Foundation
import Testing

@testable import DeclutterClustering
@testable import DeclutterInput
@testable import DeclutterSupport

/// CSV as users' files have it: separators, quoting, decimal commas, column names, and messages that give the line
/// (from 1, the header being line 1).
@Suite struct CSVPointsTests {
    @Test(arguments: [
        ("lat,lon,name\n50.5,10.25,a\n", ","),
        ("lat;lon;name\n50.5;10.25;a\n", ";"),
        ("lat\tlon\tname\n50.5\t10.25\ta\n", "tab"),
        // Commas inside a quoted header name do not count: three of them against three semicolons.
        ("lat;lon;name;\"notes, remarks, more, else\"\n50.5;10.25;a;x\n", ";"),
    ])
    func theSeparatorIsTheOneTheHeaderUses(text: String, separator: String) throws {
        let points = try readPoints(text).points
        #expect(points.count == 1, "\(separator)")
        #expect(points.first?.location?.latitude == 50.5 && points.first?.location?.longitude == 10.25, "\(separator)")
        #expect(points.first?.properties["name"] == .string("a"), "\(separator)")
    }

    /// Every row's properties share the header's keys, kept once; a repeated column name keeps its first place and
    /// the row's last value, as JSON objects do.
    @Test func rowsShareTheHeadersKeys() throws {
        let points = try readPoints("lat,lon,name,cc,name\n50.5,10.25,a,DE,b\n51,11,c,FR,d\n52,12,e,,f\n").points
        #expect(points.count == 3)
        #expect(points.allSatisfy { $0.properties.sharesKeys(with: points[0].properties) })
        #expect(points[0].properties.keys == ["name", "cc"])
        #expect(points.map { $0.properties["name"] } == [.string("b"), .string("d"), .string("f")])
        // An empty field is null, and still a member.
        #expect(points.map { $0.properties["cc"] } == [.string("DE"), .string("FR"), .null])
        #expect(points[2].properties.count == 2)
    }

    /// Text that Swift's number parsing would read as hexadecimal stays text (an airport's code `0XA0` is no 160), and
    /// a coordinate in hexadecimal is no coordinate; decimal numbers, with exponents and signs, are numbers. An
    /// aggregate reads the same numbers.
    @Test func hexadecimalTextIsText() throws {
        let points = try readPoints("lat,lon,code,n\n50.5,10.25,0XA0,+1e3\n51,11,0x10,-2.5\n").points
        #expect(points.map { $0.properties["code"] } == [.string("0XA0"), .string("0x10")])
        #expect(points.map { $0.properties["n"] } == [.number(1000), .number(-2.5)])
        #expect(throws: InputError.self) { try readPoints("lat,lon\n0x10,10\n") }
        #expect(ClusterAggregate.number(.string("0x10")) == nil && ClusterAggregate.number(.string(" 16 ")) == 16)
    }

    /// A whole number with a leading zero stays text as written (a ZIP code's zeros are its own); other numbers,
    /// zero itself and decimals below one among them, are numbers.
    @Test func zeroPaddedWholeNumbersAreText() throws {
        let points = try readPoints("lat,lon,zip\n50.5,10.25,00501\n51,11,-07\n52,12,0\n53,13,0.5\n54,14,05.5\n").points
        #expect(
            points.map { $0.properties["zip"] } == [
                .string("00501"), .string("-07"), .number(0), .number(0.5), .number(5.5),
            ])
    }

    /// 60 rows with a byte-order mark, CRLF and LF endings, quoted fields holding line breaks, blank lines and doubled
    /// quotes, blank lines between records and an invalid latitude every ten rows.
    static let messyCSV: Data = {
        var text = "\u{FEFF}lat,lon,name,notes\r\n"
        for row in 0..<60 {
            switch row % 10 {
            case 3: text += "\(row),\(row),\"two\nlines, \"\"quoted\"\"\",\"x\"\r\n"
            case 5: text += "\n"
            case 6: text += "91,\(row),bad,latitude\n"
            case 8: text += "\(row),\(row),\"\"\"\",\"a\n\nb\"\n"
            default: text += "\(Double(row) / 2),-\(row),p\(row),\n"
            }
        }
        return Data(text.utf8)
    }()

    /// A file read in runs on several cores gives what one pass gives: runs cut only between records (never inside
    /// a quoted field holding line breaks or doubled quotes), lines numbered from the file's start, skips and their
    /// first five problems in file order, and the first error in the file, not the first run's to fail.
    @Test(arguments: [2, 3, 7, 40])
    func readingInRunsEqualsOnePass(parts: Int) throws {
        let data = Self.messyCSV
        let skipping = PointReader(skipInvalid: true)
        let onePass = try skipping.readCSV(data, file: "p.csv", parts: 1)
        let runs = try skipping.readCSV(data, file: "p.csv", parts: parts, minimumRunBytes: 1)
        #expect(onePass.points.count == 48 && onePass.skipped == 6 && onePass.problems.count == 5)
        #expect(runs.points == onePass.points)
        #expect(runs.origins == onePass.origins)
        #expect(runs.skipped == onePass.skipped && runs.problems == onePass.problems)
        #expect(onePass.problems.first == "line 9: latitude 91.0 is outside -90…90")
        #expect(runs.points[3].properties["name"] == .string("two\nlines, \"quoted\""))
        #expect(runs.points[3].properties["notes"] == .string("x"))

        // Without skipping, the first bad row in the file is the error, whichever run meets it first.
        var failing = String(decoding: Self.messyCSV, as: UTF8.self)
        failing.insert(contentsOf: "1,2,3\n", at: failing.index(failing.endIndex, offsetBy: -40))
        #expect(throws: InputError(file: "p.csv", location: "line 9", message: "latitude 91.0 is outside -90…90")) {
            try PointReader().readCSV(Data(failing.utf8), file: "p.csv", parts: parts, minimumRunBytes: 1)
        }
    }

    /// `data` as a stream that hands out at most `piece` bytes a call, as a pipe may.
    static func stream(_ data: Data, piece: Int) -> (UnsafeMutableRawBufferPointer) throws -> Int {
        var offset = 0
        return { buffer in
            let count = min(buffer.count, piece, data.count - offset)
            buffer.copyBytes(from: data[offset..<offset + count])
            offset += count
            return count
        }
    }

    /// A quoted field with a line break, cut by every chunk size: before, inside and after the quotes.
    @Test func aStreamCarriesRecordsAcrossChunks() throws {
        let data = Data("lat,lon,name\n1,2,\"a\nb\"\n3,4,c\n".utf8)
        for chunkSize in 1...data.count + 1 {
            for piece in [1, 5, 1_000] {
                let result = try PointReader().read(
                    from: Self.stream(data, piece: piece), name: "<stdin>", chunkSize: chunkSize)
                #expect(
                    result.points.map(\.location?.latitude) == [1, 3]
                        && result.points.map(\.location?.longitude) == [2, 4], "chunks of \(chunkSize)")
                #expect(
                    result.points.map { $0.properties["name"] } == [.string("a\nb"), .string("c")],
                    "chunks of \(chunkSize)")
                #expect(result.origins == [2, 4] && result.format == .csv, "chunks of \(chunkSize)")
            }
        }
    }

    /// The file of ``readingInRunsEqualsOnePass(parts:)`` read as a stream: the same points, lines, skips and problems
    /// for chunks smaller than a record, chunks of a few records and one chunk holding everything, and the first
    /// error's line when it is in a later chunk.
    @Test(arguments: [3, 40, 200, 1 << 20])
    func aStreamEqualsTheFile(chunkSize: Int) throws {
        let data = Self.messyCSV
        let skipping = PointReader(skipInvalid: true)
        let file = try skipping.readCSV(data, file: "<stdin>", parts: 1)
        let stream = try skipping.read(from: Self.stream(data, piece: 17), name: "<stdin>", chunkSize: chunkSize)
        #expect(file.points.count == 48 && file.skipped == 6 && file.problems.count == 5)
        #expect(stream.points == file.points)
        #expect(stream.origins == file.origins)
        #expect(stream.skipped == file.skipped && stream.problems == file.problems)
        #expect(stream.points[3].properties["name"] == .string("two\nlines, \"quoted\""))

        // Without skipping, the first bad row is the error, line 9, in a later chunk for the smaller chunk sizes.
        #expect(throws: InputError(file: "<stdin>", location: "line 9", message: "latitude 91.0 is outside -90…90")) {
            try PointReader().read(from: Self.stream(data, piece: 1_000), name: "<stdin>", chunkSize: chunkSize)
        }
    }

    /// Line ends of a carriage return alone (Excel's "CSV (Macintosh)"), mixed with the others, read as line feeds do:
    /// in one pass, in runs, and as a stream cut at every byte (a return last in a chunk waits to see what follows).
    @Test func carriageReturnsAloneEndLines() throws {
        let expected = try PointReader(skipInvalid: true).readCSV(
            Data("lat,lon,name\n1,2,a\n\n3,4,\"b\nc\"\n5,x,d\n7,8,e\n".utf8), file: "p.csv", parts: 1)
        #expect(expected.points.count == 3 && expected.problems == [#"line 6: longitude "x" is not a number"#])
        let data = Data("lat,lon,name\r1,2,a\r\r3,4,\"b\nc\"\r\n5,x,d\r7,8,e\r".utf8)
        let skipping = PointReader(skipInvalid: true)
        var results = [
            try skipping.readCSV(data, file: "p.csv", parts: 1),
            try skipping.readCSV(data, file: "p.csv", parts: 3, minimumRunBytes: 1),
        ]
        for chunkSize in 1...data.count + 1 {
            results.append(try skipping.read(from: Self.stream(data, piece: 3), name: "p.csv", chunkSize: chunkSize))
        }
        for (index, result) in results.enumerated() {
            #expect(result.points == expected.points, "\(index)")
            #expect(result.origins == expected.origins && result.problems == expected.problems, "\(index)")
        }
    }

    /// A bad record in the second chunk of a stream is reported on its own line.
    @Test func aStreamErrorNamesItsLineInALaterChunk() throws {
        let text = "lat,lon\n" + String(repeating: "50.5,10.25\n", count: 10) + "50.5,east\n"
        #expect(throws: InputError(file: "<stdin>", location: "line 12", message: "longitude \"east\" is not a number"))
        {
            try PointReader().read(from: Self.stream(Data(text.utf8), piece: 64), name: "<stdin>", chunkSize: 64)
        }
        #expect(
            throws: InputError(file: "<stdin>", location: nil, message: "the input is empty; expected a header row")
        ) {
            try PointReader().read(from: Self.stream(Data(), piece: 64), name: "<stdin>", chunkSize: 64)
        }
    }

    /// GeoJSON from a stream is read whole, as a file would be.
    @Test func aStreamOfGeoJSONIsReadWhole() throws {
        let data = Data(
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[10.25,50.5]},"properties":{}}]}"#
                .utf8)
        let result = try PointReader().read(from: Self.stream(data, piece: 7), name: "<stdin>", chunkSize: 10)
        #expect(
            result.format == .geojson && result.points.map(\.location?.longitude) == [10.25]
                && result.points.map(\.location?.latitude) == [50.5])
    }

    /// An empty category, quoted or not, is no category: both points go to the legend's "(none)".
    @Test func anEmptyCategoryIsNone() throws {
        let text = "lat,lon,kind\n50,10,\n51,11,\"\"\n52,12,cafe\n"
        let points = try PointReader(categoryProperty: "kind").readCSV(Data(text.utf8), file: "p.csv", parts: 1).points
        #expect(points.map(\.category) == [nil, nil, "cafe"])
    }

    /// A named pipe, as `--input <(…)` passes one, is read as a stream: without an extension its format is sniffed,
    /// and an empty one says it is empty; `/dev/null` too.
    @Test func aPipeIsReadAsAStream() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipe = folder.appendingPathComponent("63").path
        #expect(mkfifo(pipe, 0o600) == 0)
        let writer = Thread {
            let handle = FileHandle(forWritingAtPath: pipe)
            handle?.write(Data("lat,lon,name\n50.5,10.25,a\n51,11,b\n".utf8))
            try? handle?.close()
        }
        writer.start()
        let result = try PointReader().read(contentsOf: URL(fileURLWithPath: pipe))
        #expect(result.format == .csv && result.points.map(\.location?.latitude) == [50.5, 51])
        #expect(result.origins == [2, 3])
        #expect(
            throws: InputError(file: "/dev/null", location: nil, message: "the input is empty; expected a header row")
        ) {
            try PointReader(format: .csv).read(contentsOf: URL(fileURLWithPath: "/dev/null"))
        }
        // An endless stream of zeros is refused at its first byte, not read for ever.
        #expect(
            throws: InputError(
                file: "/dev/zero", location: nil,
                message: "is not text (a binary byte at offset 0); expected CSV in UTF-8")
        ) {
            try PointReader(format: .csv).read(contentsOf: URL(fileURLWithPath: "/dev/zero"))
        }
    }

    /// Cuts fall just past a line break outside quotes, about equally far apart, and carry their line numbers.
    @Test func recordRunsCutBetweenRecords() {
        let text = Array("h\na,\"1\n2\"\nb\nc\"\"d\ne\n".utf8)
        let runs = text.withUnsafeBufferPointer { CSVParser.recordRuns($0, from: 2, line: 2, parts: 3) }
        // Targets 7 and 12: the first cut waits for the break at 9 (the one at 6 is quoted), the second passes the
        // break at 11 (not past 12) and the doubled quote, to the break at 16.
        #expect(runs.map(\.range) == [2..<10, 10..<17, 17..<text.count])
        #expect(runs.map(\.line) == [2, 4, 6])
        let whole = text.withUnsafeBufferPointer { CSVParser.recordRuns($0, from: 2, line: 2, parts: 1) }
        #expect(whole.map(\.range) == [2..<text.count])
    }

    @Test func quotedFieldsKeepTheirSeparators() throws {
        let semicolons = try readPoints("lat;lon;name\n50;10;\"a; b\"\n51;11;\"say \"\"hi\"\"; then go\"\n").points
        #expect(semicolons.map { $0.properties["name"] } == [.string("a; b"), .string("say \"hi\"; then go")])
        let tabs = try readPoints("lat\tlon\tname\n50\t10\t\"a\tb, c\"\n").points
        #expect(tabs.map { $0.properties["name"] } == [.string("a\tb, c")])
    }

    @Test func aGivenSeparatorWinsOverTheHeader() throws {
        // The header has more commas than pipes, but the pipe is what the user said.
        let points = try readPoints("lat|lon|name, full\n50|10|a, b\n", PointReader(delimiter: "|")).points
        #expect(points.count == 1 && points[0].properties["name, full"] == .string("a, b"))
    }

    @Test func aTSVFileIsRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("stops.tsv")
        try Data("name\tlatitude\tlongitude\nA\t48.85\t2.35\n".utf8).write(to: url)
        let points = try PointReader().read(contentsOf: url).points
        #expect(points.count == 1 && points[0].location?.latitude == 48.85 && points[0].location?.longitude == 2.35)
    }

    /// A file whose first row is out of range but valid the other way round has its columns swapped, most likely: the
    /// message says which options read it; a bad row after good ones is more likely a typo, and gets no hint.
    @Test func swappedColumnsAreSaidAtTheFirstRow() throws {
        #expect(
            readingMessage("name,lat,lng\nNarita,140.39,35.77\nKansai,135.24,34.43\n")
                == "points.csv: line 2: latitude 140.39 is outside -90…90; the columns look swapped: try --lat lng --lon lat"
        )
        #expect(
            readingMessage("lat,lon\n35.77,140.39\n140.39,35.77\n")
                == "points.csv: line 3: latitude 140.39 is outside -90…90")
        // A latitude past 180 is not a longitude either.
        #expect(readingMessage("lat,lon\n200,35\n") == "points.csv: line 2: latitude 200.0 is outside -90…90")
        let skipping = try readPoints("lat,lon\n140.39,35.77\n135.24,34.43\n", PointReader(skipInvalid: true))
        #expect(
            skipping.problems == [
                "line 2: latitude 140.39 is outside -90…90; the columns look swapped: try --lat lon --lon lat",
                "line 3: latitude 135.24 is outside -90…90",
            ])
        #expect(
            readingMessage(
                #"{"type":"Feature","geometry":{"type":"Point","coordinates":[35.77,140.39]}}"#, name: "p.geojson")
                == "p.geojson: geometry.coordinates: latitude 140.39 is outside -90…90; it looks swapped: GeoJSON gives "
                + "[longitude, latitude]")
    }

    /// A CSV saved in Windows-1252 (as Excel saves it in much of Europe) is said to be so, at its line, with the
    /// command that converts it; a binary file is still binary.
    @Test func textInACodePageIsToldFromBinary() throws {
        var latin = Data("name;lat;lon\nParis;48,85;2,35\nM".utf8)
        latin.append(contentsOf: [0xFC])
        latin.append(Data("nchen;48,14;11,58\n".utf8))
        #expect(
            PointFormat.csv.notText(latin, file: "orte.csv")
                == InputError(
                    file: "orte.csv", location: "line 3",
                    message:
                        "byte 0xFC at offset 31 (\"ü\" in Latin-1) is not UTF-8; expected CSV in UTF-8; if the file is "
                        + "Windows-1252 or Latin-1 text, convert it: iconv -f windows-1252 -t utf-8 orte.csv > utf8.csv"
                ))
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(
            PointFormat.csv.notText(png, file: "a.csv")
                == InputError(
                    file: "a.csv", location: nil,
                    message: "is not text (a binary byte at offset 0); expected CSV in UTF-8"))
        #expect(PointFormat.csv.notText(Data("lat,lon\n50,10\n".utf8), file: "a.csv") == nil)
    }

    /// A byte that is not UTF-8 beyond the first 64 KB (which are checked before reading) is refused at its line and
    /// field, read whole or streamed in pieces, rather than read as U+FFFD in a name.
    @Test func textInACodePageBeyondTheFirstBytesIsRefusedAtItsField() throws {
        var latin = Data("name,lat,lon,kind\n".utf8)
        for row in 0..<5000 { latin.append(Data("place \(row),48.5,2.5,shop\n".utf8)) }
        latin.append(Data("Caf".utf8) + [0xE9] + Data(" de Flore,48.854,2.333,cafe\n".utf8))
        latin.append(Data("tail,48.5,2.5,shop\n".utf8))
        #expect(latin.count > 1 << 16)
        let message =
            "big.csv: line 5002: field 1 (name): byte 0xE9 (\"é\" in Latin-1) is not UTF-8; expected CSV in UTF-8; if the "
            + "file is Windows-1252 or Latin-1 text, convert it: iconv -f windows-1252 -t utf-8 big.csv > utf8.csv"
        #expect(throws: InputError.self) { try PointReader().read(latin, name: "big.csv") }
        do { _ = try PointReader().read(latin, name: "big.csv") } catch { #expect("\(error)" == message) }
        // A sequence cut short at a field's end is no more UTF-8 than a stray byte.
        var cut = Data("name,lat,lon\n".utf8)
        for _ in 0..<4000 { cut.append(Data("ok,48.5,2.5\n".utf8)) }
        cut.append(Data("x".utf8) + [0xC3] + Data(",48.5,2.5\n".utf8))
        do {
            _ = try PointReader().read(cut, name: "cut.csv")
            Issue.record("read")
        } catch {
            #expect(
                "\(error)".hasPrefix("cut.csv: line 4002: field 1 (name): byte 0xC3 (\"Ã\" in Latin-1) is not UTF-8"))
        }
    }

    @Test func aDecimalCommaIsReadWhereTheCommaIsNotTheSeparator() throws {
        let points = try readPoints("lat;lon\n50,5;10,25\n").points
        #expect(points.count == 1 && points[0].location?.latitude == 50.5 && points[0].location?.longitude == 10.25)
        #expect(readingMessage("lat,lon\n\"50,5\",10\n") == "points.csv: line 2: latitude \"50,5\" is not a number")
    }

    @Test(arguments: [
        "lat,lon", "Latitude,Longitude", "LAT_DEG , Lon_Deg", "latitude_deg,longitude_deg", "lat,long", "lat,lng",
        "y,x",
    ])
    func coordinateColumnsGoByTheirUsualNames(header: String) throws {
        let points = try readPoints("\(header),id\n50,10,7\n").points
        #expect(
            points.count == 1 && points[0].location?.latitude == 50 && points[0].location?.longitude == 10, "\(header)")
        #expect(points.first?.properties.keys == ["id"], "\(header)")
    }

    @Test func yAndXCountOnlyWithoutABetterName() throws {
        // Projected x and y beside latitude and longitude stay properties.
        let points = try readPoints("x,y,latitude,longitude\n500000,4649776,42,3\n").points
        #expect(points.count == 1 && points[0].location?.latitude == 42 && points[0].location?.longitude == 3)
        #expect(points[0].properties["x"] == .number(500000) && points[0].properties["y"] == .number(4649776))
    }

    @Test func columnsNamedByTheUserWin() throws {
        let reader = PointReader(latitudeColumn: " LAT_WGS84", longitudeColumn: "lon_wgs84")
        let points = try readPoints("id,lat,lat_wgs84,lon_wgs84\n7,1,50,10\n", reader).points
        #expect(points.count == 1 && points[0].location?.latitude == 50 && points[0].location?.longitude == 10)
        #expect(points[0].properties["lat"] == .number(1))
    }

    @Test(arguments: [
        (
            "Latitude;Longitude\n50;10\n", PointReader(delimiter: ","),
            "points.csv: line 1: header \"Latitude;Longitude\" has no latitude or longitude column (separated by \",\"); it contains \";\" — try --delimiter ';'"
        ),
        (
            "lat\tlon\n50\t10\n", PointReader(delimiter: ";"),
            "points.csv: line 1: header \"lat\\tlon\" has no latitude or longitude column (separated by \";\"); it contains tabs — try --delimiter tab"
        ),
        (
            "name,value\n1,2\n", PointReader(),
            "points.csv: line 1: header \"name,value\" has no latitude or longitude column (separated by \",\"); expected columns named "
                + "lat, latitude, latitude_deg, lat_deg or y and lon, lng, long, longitude, longitude_deg, lon_deg or x (or give --lat and --lon)"
        ),
        (
            "name;lon\n1;2\n", PointReader(),
            "points.csv: line 1: header \"name;lon\" has no latitude column (separated by \";\"); expected a column named lat, latitude, latitude_deg, lat_deg or y (or give --lat)"
        ),
        (
            "id,lat_wgs84,lon_wgs84\n7,50,10\n", PointReader(latitudeColumn: "Lat"),
            "points.csv: line 1: --lat \"Lat\" is not a column; the header's columns are \"id\", \"lat_wgs84\", \"lon_wgs84\""
        ),
        (
            "a,b\n50,10\n", PointReader(latitudeColumn: "a", longitudeColumn: "A"),
            "points.csv: line 1: --lat and --lon name the same column, \"a\""
        ),
        (
            "lat,lon,LAT\n50,10,51\n", PointReader(),
            "points.csv: line 1: columns 1 and 3 are both named \"lat\"; expected one column of each name (rename one, or give --lat with the other's name)"
        ),
        ("", PointReader(), "points.csv: the file is empty; expected a header row"),
    ])
    func aHeaderWithoutCoordinatesSaysWhatItFound(text: String, reader: PointReader, expected: String) {
        #expect(readingMessage(text, reader) == expected)
    }

    @Test func csvLinesCountFromTheHeader() {
        // The header is line 1; a quoted field over two lines makes the next row line 4.
        #expect(
            readingMessage("lat,lon,note\n50,10,\"two\nlines\"\nx,10,a\n")
                == "points.csv: line 4: latitude \"x\" is not a number")
        #expect(
            readingMessage("lat,lon\n50,10\n\n50,200\n") == "points.csv: line 4: longitude 200.0 is outside -180…180")
        #expect(readingMessage("lat,lon\nx,1\n", name: "<stdin>") == "<stdin>: line 2: latitude \"x\" is not a number")
    }

    @Test func csvFieldsAreTrimmedAsFoundationTrimsWhitespace() throws {
        for text in ["12.5", " 12.5 ", "\t-3\t", "\u{00A0}4\u{2003}", "", "   ", "a b", " x\n", "é ", " 😀"] {
            #expect(
                String(text.trimmingSpaces) == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
        }
        let csv = "lat , lon\n 50.5 ,\t10.25\n"
        let points = try PointReader().read(contentsOf: try temporaryFile("spaced.csv", Data(csv.utf8))).points
        #expect(points.count == 1 && points[0].location?.latitude == 50.5 && points[0].location?.longitude == 10.25)
    }

    func temporaryFile(_ name: String, _ data: Data) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }
}
