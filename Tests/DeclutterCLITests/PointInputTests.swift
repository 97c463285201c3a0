import DeclutterInput
import DeclutterMapContent
import DeclutterRender
import DeclutterStaticAPI
import DeclutterSupport
import DeclutterTesting
import Foundation
import Testing

/// `--input -`, `--format`, `--delimiter`, `--lat` and `--lon`, which `render`, `cluster` and `bench cluster` share.
@Suite struct PointInputTests {
    /// The features `cluster` printed.
    func features(_ result: CommandResult) throws -> [JSONValue] {
        let root = JSONValue(foundation: try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)))
        return try #require(root.object?["features"]?.array)
    }

    func pointCounts(_ result: CommandResult) throws -> [Double] {
        try features(result).map { $0.object?["properties"]?.object?["point_count"]?.number ?? 1 }
    }

    @Test func standardInputIsReadAndItsFormatSniffed() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let csv = try CommandResult.run(
            ["cluster", "--input", "-", "--zoom", "3"], in: folder, stdin: Data("lat;lon;name\n50;10;a\n50;10;b\n".utf8)
        )
        #expect(csv.status == 0 && csv.stderr.isEmpty, "\(csv.stderr)")
        #expect(try pointCounts(csv) == [2])
        let geoJSON = #"""
            {"type":"FeatureCollection","features":[
              {"type":"Feature","properties":{},"geometry":{"type":"MultiPoint","coordinates":[[10,50],[10,50]]}},
              {"type":"Feature","properties":{},"geometry":null}]}
            """#
        let json = try CommandResult.run(
            ["cluster", "--input", "-", "--zoom", "3"], in: folder, stdin: Data(geoJSON.utf8))
        #expect(json.status == 0)
        #expect(json.stderr == "warning: <stdin>: 1 feature has no geometry (features[1]); skipped\n")
        #expect(try pointCounts(json) == [2])
    }

    @Test func errorsInStandardInputNameIt() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandResult.run(
            ["cluster", "--input", "-", "--zoom", "3"], in: folder, stdin: Data("lat,lon\n50,10\nx,1\n".utf8))
        #expect(result.status == 2)
        #expect(result.stderr == "Error: <stdin>: line 3: latitude \"x\" is not a number\n")
        // --format wins over what the content looks like.
        let forced = try CommandResult.run(
            ["cluster", "--input", "-", "--zoom", "3", "--format", "geojson"], in: folder,
            stdin: Data("lat,lon\n50,10\n".utf8))
        #expect(forced.status == 2)
        #expect(forced.stderr.hasPrefix("Error: <stdin>: not valid JSON (line 1, column 1: "), "\(forced.stderr)")
    }

    @Test func formatReadsAFileWhoseExtensionDoesNotSay() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("lat\tlon\n50\t10\n50\t10\n".utf8).write(to: folder.appendingPathComponent("export.txt"))
        let result = try CommandResult.run(
            ["cluster", "--input", "export.txt", "--format", "csv", "--zoom", "3"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try pointCounts(result) == [2])
    }

    @Test func aGivenDelimiterIsUsed() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("lat|lon|name, full\n50|10|\"a, b\"\n".utf8).write(to: folder.appendingPathComponent("pipes.csv"))
        let result = try CommandResult.run(
            ["cluster", "--input", "pipes.csv", "--delimiter", "|", "--zoom", "3"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try features(result).first?.object?["properties"]?.object?["name, full"] == .string("a, b"))
        try Data("Latitude\tLongitude\n50\t10\n".utf8).write(to: folder.appendingPathComponent("tabs.csv"))
        let tabs = try CommandResult.run(
            ["cluster", "--input", "tabs.csv", "--delimiter", "\\t", "--zoom", "3"], in: folder)
        #expect(tabs.status == 0 && tabs.stderr.isEmpty, "\(tabs.stderr)")
    }

    @Test func aWrongDelimiterSaysWhichOneTheHeaderHas() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("Latitude;Longitude\n50;10\n".utf8).write(to: folder.appendingPathComponent("points.csv"))
        let result = try CommandResult.run(
            ["cluster", "--input", "points.csv", "--delimiter", ",", "--zoom", "3"], in: folder)
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "Error: points.csv: line 1: header \"Latitude;Longitude\" has no latitude or longitude column "
                + "(separated by \",\"); it contains \";\" — try --delimiter ';'\n")
    }

    @Test func latAndLonNameTheColumns() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("stop_id,stop_lat,stop_lon\n7,50,10\n8,50,10\n".utf8).write(
            to: folder.appendingPathComponent("stops.csv"))
        let result = try CommandResult.run(
            ["cluster", "--input", "stops.csv", "--lat", "stop_lat", "--lon", "STOP_LON", "--zoom", "3"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try pointCounts(result) == [2])
        let wrong = try CommandResult.run(
            ["cluster", "--input", "stops.csv", "--lat", "lat", "--lon", "stop_lon", "--zoom", "3"], in: folder)
        #expect(wrong.status == 2)
        #expect(
            wrong.stderr
                == "Error: stops.csv: line 1: --lat \"lat\" is not a column; the header's columns are \"stop_id\", \"stop_lat\", \"stop_lon\"\n"
        )
    }

    @Test(arguments: [
        (["--delimiter", ":"], "Error: --delimiter must be ',', ';', tab or '|', got :"),
        (["--format", "xml"], "Error: --format must be csv, geojson or plist, got xml"),
    ])
    func badOptionsExitTwo(arguments: [String], message: String) throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("lat,lon\n1,2\n".utf8).write(to: folder.appendingPathComponent("x.csv"))
        for command in [["cluster", "--zoom", "3"], ["render", "--output", "map.png"]] {
            let result = try CommandResult.run(command + ["--input", "x.csv"] + arguments, in: folder)
            #expect(result.status == 2)
            #expect(result.stderr.hasPrefix(message + "\n"), "\(result.stderr)")
        }
    }
}
