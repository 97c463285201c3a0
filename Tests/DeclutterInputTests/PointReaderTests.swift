import DeclutterTestSupport
import Foundation
import Testing

@testable import DeclutterGeometry
@testable import DeclutterInput

/// What every input format shares: sniffing the format, a given format over the extension, where each point came
/// from, and skipped rows summed up.
@Suite struct PointReaderTests {

    @Test func pointsKnowWhereTheyCameFrom() throws {
        let csv = try readPoints(
            "lat,lon,note\n50,10,a\n\n91,10,b\n51,11,\"two\nlines\"\n52,12,c\n", PointReader(skipInvalid: true))
        #expect(csv.points.indices.map { csv.location(ofPoint: $0) } == ["line 2", "line 5", "line 7"])
        let multi = #"{"type":"Feature","geometry":{"type":"MultiPoint","coordinates":[[10,50],[11,51]]}}"#
        let point = #"{"type":"Feature","geometry":{"type":"Point","coordinates":[10,50]}}"#
        let json = try readPoints("[\(point),\(multi)]", name: "x.geojson")
        #expect(
            json.points.indices.map { json.location(ofPoint: $0) } == ["features[0]", "features[1]", "features[1]"])
        #expect(try readPoints(point, name: "x.geojson").location(ofPoint: 0) == nil)
        #expect(json.location(ofPoint: 3) == nil)
    }

    @Test func skippedRowsAreSummedUpInOneWarning() throws {
        let rows = (0..<8).map { $0 % 2 == 0 ? "50,10" : "x,10" }.joined(separator: "\n")
        let result = try readPoints("lat,lon\n" + rows + "\n", PointReader(skipInvalid: true))
        #expect(result.points.count == 4 && result.skipped == 4)
        #expect(
            result.warnings == [
                "points.csv: skipped 4 invalid rows (line 3: latitude \"x\" is not a number; line 5: latitude \"x\" is not a number; "
                    + "line 7: latitude \"x\" is not a number; line 9: latitude \"x\" is not a number)"
            ])
        let one = try readPoints("lat,lon\n50,10\n91,10\n", PointReader(skipInvalid: true))
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
        #expect(
            throws: InputError(
                file: url.relativePath, location: nil,
                message:
                    "unknown input format; expected .geojson, .json, .csv, .tsv or .plist, or a GeoJSON sequence's .geojsonl, "
                    + ".geojsons, .ndjson or .jsonl (or give --format)")
        ) {
            try PointReader().read(contentsOf: url)
        }
    }

    /// Plists the fuzzer damaged are refused with a message: binary ones with a set among the entries (a null
    /// dereference in PropertyListSerialization's bridging) and with a string past its bounds (a trap in
    /// Foundation's binary reader), and XML with bytes that are not UTF-8 (a trap in PropertyListDecoder's XML
    /// reader) once crashed the process. Binary plists are refused whole, as the reader cannot be made safe here.
    @Test func aDamagedBinaryPlistIsRefused() throws {
        for fixture in ["damaged-set", "damaged-string"] {
            let data = try Data(contentsOf: coreFixtures.appendingPathComponent("fuzz/\(fixture).plist"))
            #expect(
                throws: InputError(
                    file: "damaged.plist", location: nil,
                    message:
                        "a binary property list; expected XML (convert it with plutil -convert xml1 FILE on macOS, or elsewhere with python3 -c \"import plistlib,sys; sys.stdout.buffer.write(plistlib.dumps(plistlib.load(open(sys.argv[1],'rb'))))\" FILE > FILE.xml)"
                )
            ) {
                try PointReader(format: .plist).read(data, name: "damaged.plist")
            }
        }
        // Bytes that are not UTF-8 in an XML integer made Foundation's XML reader trap.
        let invalid = try Data(contentsOf: coreFixtures.appendingPathComponent("fuzz/invalid-utf8-integer.plist"))
        #expect(
            throws: InputError(
                file: "invalid.plist", location: nil,
                message: "not a valid property list (expected XML in UTF-8)")
        ) {
            try PointReader(format: .plist).read(invalid, name: "invalid.plist")
        }
        #expect(throws: InputError(file: "text.plist", location: nil, message: "not a valid property list")) {
            try PointReader(format: .plist).read(Data("<?xml not really".utf8), name: "text.plist")
        }
        let read = try PointReader(skipInvalid: true, format: .plist).read(
            Data(
                """
                <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>cycles</key><array>
                <dict><key>latitude</key><integer>37</integer><key>longitude</key><real>-122.4</real><key>type</key><integer>1</integer></dict>
                <string>not a cycle</string>
                <dict><key>latitude</key><real>37.8</real><key>longitude</key><real>-122.4</real><key>type</key><integer>7</integer></dict>
                </array></dict></plist>
                """.utf8), name: "mixed.plist")
        #expect(read.points.map(\.category) == ["bicycle"])
        #expect(
            read.problems == [
                "cycles[1]: expected numeric longitude and latitude",
                "cycles[2].type: expected 0 (unicycle), 1 (bicycle) or 2 (tricycle)",
            ])
        #expect(read.region == nil)
        #expect(read.warnings.allSatisfy { !$0.contains("region") })
    }

    /// The sample app's region frames the map; one that cannot (a latitude of 200, a negative delta) was dropped in
    /// silence, and is now said.
    @Test(arguments: [("200.0", "0.05"), ("37.78", "-5.0")])
    func aRegionThatCannotBeUsedIsSaid(latitude: String, delta: String) throws {
        func plist(_ latitude: String, _ delta: String) -> Data {
            Data(
                """
                <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>cycles</key><array>
                <dict><key>latitude</key><real>37.78</real><key>longitude</key><real>-122.4</real><key>type</key><integer>1</integer></dict>
                </array><key>centerLatitude</key><real>\(latitude)</real><key>centerLongitude</key><real>-122.4</real>
                <key>latitudeDelta</key><real>\(delta)</real><key>longitudeDelta</key><real>0.05</real></dict></plist>
                """.utf8)
        }
        let good = try PointReader(format: .plist).read(plist("37.78", "0.05"), name: "good.plist")
        #expect(good.region != nil)
        #expect(good.warnings.isEmpty)
        let bad = try PointReader(format: .plist).read(plist(latitude, delta), name: "bad.plist")
        #expect(bad.region == nil)
        #expect(
            bad.warnings == [
                "bad.plist: the region (centerLatitude, centerLongitude, latitudeDelta, longitudeDelta) is not used: "
                    + "expected a centre within ±90° latitude and ±180° longitude and two deltas of 0 or more, all "
                    + "numbers; the map is fitted to the points"
            ])
    }
}
