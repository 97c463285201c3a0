@testable import DeclutterCore
import Foundation
import Testing

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
        #expect(points.first?.latitude == 50.5 && points.first?.longitude == 10.25, "\(separator)")
        #expect(points.first?.properties["name"] == .string("a"), "\(separator)")
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
        #expect(points.count == 1 && points[0].latitude == 48.85 && points[0].longitude == 2.35)
    }

    @Test func aDecimalCommaIsReadWhereTheCommaIsNotTheSeparator() throws {
        let points = try readPoints("lat;lon\n50,5;10,25\n").points
        #expect(points.count == 1 && points[0].latitude == 50.5 && points[0].longitude == 10.25)
        #expect(readingMessage("lat,lon\n\"50,5\",10\n") == "points.csv: line 2: latitude \"50,5\" is not a number")
    }

    @Test(arguments: [
        "lat,lon", "Latitude,Longitude", "LAT_DEG , Lon_Deg", "latitude_deg,longitude_deg", "lat,long", "lat,lng", "y,x",
    ])
    func coordinateColumnsGoByTheirUsualNames(header: String) throws {
        let points = try readPoints("\(header),id\n50,10,7\n").points
        #expect(points.count == 1 && points[0].latitude == 50 && points[0].longitude == 10, "\(header)")
        #expect(points.first?.properties.keys == ["id"], "\(header)")
    }

    @Test func yAndXCountOnlyWithoutABetterName() throws {
        // Projected x and y beside latitude and longitude stay properties.
        let points = try readPoints("x,y,latitude,longitude\n500000,4649776,42,3\n").points
        #expect(points.count == 1 && points[0].latitude == 42 && points[0].longitude == 3)
        #expect(points[0].properties["x"] == .number(500000) && points[0].properties["y"] == .number(4649776))
    }

    @Test func columnsNamedByTheUserWin() throws {
        let reader = PointReader(latitudeColumn: " LAT_WGS84", longitudeColumn: "lon_wgs84")
        let points = try readPoints("id,lat,lat_wgs84,lon_wgs84\n7,1,50,10\n", reader).points
        #expect(points.count == 1 && points[0].latitude == 50 && points[0].longitude == 10)
        #expect(points[0].properties["lat"] == .number(1))
    }

    @Test(arguments: [
        ("Latitude;Longitude\n50;10\n", PointReader(delimiter: ","),
         "points.csv: line 1: header \"Latitude;Longitude\" has no latitude or longitude column (separated by \",\"); it contains \";\" — try --delimiter ';'"),
        ("lat\tlon\n50\t10\n", PointReader(delimiter: ";"),
         "points.csv: line 1: header \"lat\\tlon\" has no latitude or longitude column (separated by \";\"); it contains tabs — try --delimiter tab"),
        ("name,value\n1,2\n", PointReader(),
         "points.csv: line 1: header \"name,value\" has no latitude or longitude column (separated by \",\"); expected columns named "
            + "lat, latitude, latitude_deg, lat_deg or y and lon, lng, long, longitude, longitude_deg, lon_deg or x (or give --lat and --lon)"),
        ("name;lon\n1;2\n", PointReader(),
         "points.csv: line 1: header \"name;lon\" has no latitude column (separated by \";\"); expected a column named lat, latitude, latitude_deg, lat_deg or y (or give --lat)"),
        ("id,lat_wgs84,lon_wgs84\n7,50,10\n", PointReader(latitudeColumn: "Lat"),
         "points.csv: line 1: --lat \"Lat\" is not a column; the header's columns are \"id\", \"lat_wgs84\", \"lon_wgs84\""),
        ("a,b\n50,10\n", PointReader(latitudeColumn: "a", longitudeColumn: "A"),
         "points.csv: line 1: --lat and --lon name the same column, \"a\""),
        ("", PointReader(), "points.csv: the file is empty; expected a header row"),
    ])
    func aHeaderWithoutCoordinatesSaysWhatItFound(text: String, reader: PointReader, expected: String) {
        #expect(readingMessage(text, reader) == expected)
    }

    @Test func csvLinesCountFromTheHeader() {
        // The header is line 1; a quoted field over two lines makes the next row line 4.
        #expect(readingMessage("lat,lon,note\n50,10,\"two\nlines\"\nx,10,a\n") == "points.csv: line 4: latitude \"x\" is not a number")
        #expect(readingMessage("lat,lon\n50,10\n\n50,200\n") == "points.csv: line 4: longitude 200.0 is outside -180…180")
        #expect(readingMessage("lat,lon\nx,1\n", name: "<stdin>") == "<stdin>: line 2: latitude \"x\" is not a number")
    }

    @Test func csvFieldsAreTrimmedAsFoundationTrimsWhitespace() throws {
        for text in ["12.5", " 12.5 ", "\t-3\t", "\u{00A0}4\u{2003}", "", "   ", "a b", " x\n", "é ", " 😀"] {
            #expect(String(text.trimmingSpaces) == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
        }
        let csv = "lat , lon\n 50.5 ,\t10.25\n"
        let points = try PointReader().read(contentsOf: try temporaryFile("spaced.csv", Data(csv.utf8))).points
        #expect(points.count == 1 && points[0].latitude == 50.5 && points[0].longitude == 10.25)
    }

    func temporaryFile(_ name: String, _ data: Data) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }
}
