@testable import DeclutterCore
import Foundation
import Testing

/// Reading points as users' files have them: separators, column names, MultiPoints, features without a geometry,
/// and messages that say where (CSV lines from 1 with the header as line 1, GeoJSON `features[N]` from 0).
@Suite struct PointReaderTests {
    func read(_ text: String, name: String = "points.csv", _ reader: PointReader = PointReader()) throws -> PointReader.Result {
        try reader.read(Data(text.utf8), name: name)
    }

    /// The error reading `text` throws, as printed.
    func message(_ text: String, name: String = "points.csv", _ reader: PointReader = PointReader()) -> String? {
        do {
            _ = try read(text, name: name, reader)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: [
        ("lat,lon,name\n50.5,10.25,a\n", ","),
        ("lat;lon;name\n50.5;10.25;a\n", ";"),
        ("lat\tlon\tname\n50.5\t10.25\ta\n", "tab"),
        // Commas inside a quoted header name do not count: three of them against three semicolons.
        ("lat;lon;name;\"notes, remarks, more, else\"\n50.5;10.25;a;x\n", ";"),
    ])
    func theSeparatorIsTheOneTheHeaderUses(text: String, separator: String) throws {
        let points = try read(text).points
        #expect(points.count == 1, "\(separator)")
        #expect(points.first?.latitude == 50.5 && points.first?.longitude == 10.25, "\(separator)")
        #expect(points.first?.properties["name"] == .string("a"), "\(separator)")
    }

    @Test func quotedFieldsKeepTheirSeparators() throws {
        let semicolons = try read("lat;lon;name\n50;10;\"a; b\"\n51;11;\"say \"\"hi\"\"; then go\"\n").points
        #expect(semicolons.map { $0.properties["name"] } == [.string("a; b"), .string("say \"hi\"; then go")])
        let tabs = try read("lat\tlon\tname\n50\t10\t\"a\tb, c\"\n").points
        #expect(tabs.map { $0.properties["name"] } == [.string("a\tb, c")])
    }

    @Test func aGivenSeparatorWinsOverTheHeader() throws {
        // The header has more commas than pipes, but the pipe is what the user said.
        let points = try read("lat|lon|name, full\n50|10|a, b\n", PointReader(delimiter: "|")).points
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
        let points = try read("lat;lon\n50,5;10,25\n").points
        #expect(points.count == 1 && points[0].latitude == 50.5 && points[0].longitude == 10.25)
        #expect(message("lat,lon\n\"50,5\",10\n") == "points.csv: line 2: latitude \"50,5\" is not a number")
    }

    @Test(arguments: [
        "lat,lon", "Latitude,Longitude", "LAT_DEG , Lon_Deg", "latitude_deg,longitude_deg", "lat,long", "lat,lng", "y,x",
    ])
    func coordinateColumnsGoByTheirUsualNames(header: String) throws {
        let points = try read("\(header),id\n50,10,7\n").points
        #expect(points.count == 1 && points[0].latitude == 50 && points[0].longitude == 10, "\(header)")
        #expect(points.first?.properties.keys == ["id"], "\(header)")
    }

    @Test func yAndXCountOnlyWithoutABetterName() throws {
        // Projected x and y beside latitude and longitude stay properties.
        let points = try read("x,y,latitude,longitude\n500000,4649776,42,3\n").points
        #expect(points.count == 1 && points[0].latitude == 42 && points[0].longitude == 3)
        #expect(points[0].properties["x"] == .number(500000) && points[0].properties["y"] == .number(4649776))
    }

    @Test func columnsNamedByTheUserWin() throws {
        let reader = PointReader(latitudeColumn: " LAT_WGS84", longitudeColumn: "lon_wgs84")
        let points = try read("id,lat,lat_wgs84,lon_wgs84\n7,1,50,10\n", reader).points
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
        #expect(message(text, reader) == expected)
    }

    @Test func csvLinesCountFromTheHeader() {
        // The header is line 1; a quoted field over two lines makes the next row line 4.
        #expect(message("lat,lon,note\n50,10,\"two\nlines\"\nx,10,a\n") == "points.csv: line 4: latitude \"x\" is not a number")
        #expect(message("lat,lon\n50,10\n\n50,200\n") == "points.csv: line 4: longitude 200.0 is outside -180…180")
        #expect(message("lat,lon\nx,1\n", name: "<stdin>") == "<stdin>: line 2: latitude \"x\" is not a number")
    }

    @Test func aMultiPointGivesAPointPerPosition() throws {
        let text = #"""
            {"type":"FeatureCollection","features":[
              {"type":"Feature","id":7,"properties":{"kind":"stop"},"geometry":{"type":"MultiPoint","coordinates":[[10,50],[11,51]]}},
              {"type":"Feature","properties":{"kind":"depot"},"geometry":{"type":"Point","coordinates":[12,52]}}]}
            """#
        let points = try read(text, name: "stops.geojson", PointReader(categoryProperty: "kind")).points
        #expect(points.map(\.longitude) == [10, 11, 12] && points.map(\.latitude) == [50, 51, 52])
        #expect(points.map(\.category) == ["stop", "stop", "depot"])
        #expect(points.map(\.id) == [.number(7), .number(7), nil])
    }

    @Test func featuresWithoutAGeometryAreCountedAndNeverLocated() throws {
        let located = #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[10,50]}}"#
        let unlocated = #"{"type":"Feature","properties":{},"geometry":null}"#
        let features = (0..<14).map { [4, 9, 12].contains($0) ? unlocated : located }
        let result = try read(#"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}", name: "stops.geojson")
        // They stay as unlocated points, so that the others keep the features' numbering (supercluster's ids count them).
        #expect(result.points.count == 14 && result.withoutGeometry == 3 && result.skipped == 0)
        #expect(result.points.indices.filter { !result.points[$0].latitude.isFinite } == [4, 9, 12])
        #expect(result.warnings == ["stops.geojson: 3 features have no geometry (features[4], features[9], features[12]); skipped"])
        let many = try read("[" + Array(repeating: unlocated, count: 7).joined(separator: ",") + "]", name: "x.geojson")
        #expect(many.warnings == ["x.geojson: 7 features have no geometry (features[0], features[1], features[2], features[3], features[4], …); skipped"])
        let alone = try read(unlocated, name: "one.geojson")
        #expect(alone.points.count == 1)
        #expect(alone.warnings == ["one.geojson: 1 feature has no geometry; skipped"])
    }

    @Test func geoJSONFeaturesAreNumberedAsJSONPaths() {
        let point = #"{"type":"Feature","geometry":{"type":"Point","coordinates":[10,50]}}"#
        #expect(message("[\(point),\(point),{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[10,95]}}]", name: "x.geojson")
            == "x.geojson: features[2].geometry.coordinates: latitude 95.0 is outside -90…90")
        #expect(message(#"{"features":[{"geometry":{"type":"MultiPoint","coordinates":[[10,50],[200,50]]}}]}"#, name: "x.geojson")
            == "x.geojson: features[0].geometry.coordinates[1]: longitude 200.0 is outside -180…180")
        #expect(message(#"{"features":[\#(point),{"geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}]}"#, name: "x.geojson")
            == "x.geojson: features[1].geometry: expected a Point or MultiPoint geometry, found \"LineString\"")
        #expect(message(#"{"features":[\#(point),3]}"#, name: "x.geojson") == "x.geojson: features[1]: expected a Feature object")
    }

    @Test func pointsKnowWhereTheyCameFrom() throws {
        let csv = try read("lat,lon,note\n50,10,a\n\n91,10,b\n51,11,\"two\nlines\"\n52,12,c\n", PointReader(skipInvalid: true))
        #expect(csv.points.indices.map { csv.location(ofPoint: $0) } == ["line 2", "line 5", "line 7"])
        let multi = #"{"type":"Feature","geometry":{"type":"MultiPoint","coordinates":[[10,50],[11,51]]}}"#
        let point = #"{"type":"Feature","geometry":{"type":"Point","coordinates":[10,50]}}"#
        let json = try read("[\(point),\(multi)]", name: "x.geojson")
        #expect(json.points.indices.map { json.location(ofPoint: $0) } == ["features[0]", "features[1]", "features[1]"])
        #expect(try read(point, name: "x.geojson").location(ofPoint: 0) == nil)
        #expect(json.location(ofPoint: 3) == nil)
    }

    @Test func skippedRowsAreSummedUpInOneWarning() throws {
        let rows = (0..<8).map { $0 % 2 == 0 ? "50,10" : "x,10" }.joined(separator: "\n")
        let result = try read("lat,lon\n" + rows + "\n", PointReader(skipInvalid: true))
        #expect(result.points.count == 4 && result.skipped == 4)
        #expect(result.warnings == ["points.csv: skipped 4 invalid rows (line 3: latitude \"x\" is not a number; line 5: latitude \"x\" is not a number; "
            + "line 7: latitude \"x\" is not a number; line 9: latitude \"x\" is not a number)"])
        let one = try read("lat,lon\n50,10\n91,10\n", PointReader(skipInvalid: true))
        #expect(one.warnings == ["points.csv: skipped 1 invalid row (line 3: latitude 91.0 is outside -90…90)"])
    }

    @Test(arguments: [
        ("  \n{\"type\":\"FeatureCollection\"}", PointFormat.geojson), ("[]", .geojson), ("\u{FEFF}{}", .geojson),
        ("<?xml version=\"1.0\"?>", .plist), ("bplist00", .plist), ("lat,lon\n", .csv), ("", .csv),
    ])
    func unnamedInputIsSniffed(text: String, format: PointFormat) {
        #expect(PointFormat.sniffed(from: Data(text.utf8)) == format)
    }

    @Test func aGivenFormatWinsOverTheExtension() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("export.txt")
        try Data("lat,lon\n50,10\n".utf8).write(to: url)
        #expect(try PointReader(format: .csv).read(contentsOf: url).points.count == 1)
        #expect(throws: InputError(file: url.relativePath, location: nil, message: "unknown input format; expected .geojson, .json, .csv, .tsv or .plist (or give --format)")) {
            try PointReader().read(contentsOf: url)
        }
    }
}
