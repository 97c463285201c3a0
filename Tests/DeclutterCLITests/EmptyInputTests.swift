import Foundation
import Testing

/// Input with nothing to draw: an error naming the file, exit 2, nothing written, rather than a map that looks like a
/// success.
@Suite struct EmptyInputTests {
    /// A file with a header and no rows drew an empty sea at 0°, 0° at zoom 17 and exited 0; now it is an error naming
    /// the file, exit 2, and nothing is written; with a centre given, the map is drawn without markers.
    @Test func noPointsToFitIsAnError() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("lat,lon,name\n".utf8).write(to: folder.appendingPathComponent("empty.csv"))
        for arguments in [[String](), ["--zoom", "4"]] {
            let result = try CommandResult.run(
                ["render", "--input", "empty.csv", "--basemap", "none", "--output", "map.png"] + arguments, in: folder)
            #expect(result.status == 2)
            #expect(
                result.stderr == "Error: empty.csv has no points and there are no overlays to fit the map to; "
                    + "give --center and --zoom to draw a map without markers\n")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("map.png").path))
        }
        let centred = try CommandResult.run(
            [
                "render", "--input", "empty.csv", "--basemap", "none", "--center", "48,10", "--zoom", "4",
                "--output", "centred.png",
            ], in: folder)
        #expect(centred.status == 0, "\(centred.stderr)")
        #expect(centred.stderr == "")
    }

    /// A file of no bytes at all has no header to read, and standard input with a header only has no points: both
    /// exit 2 naming where they came from.
    @Test func anEmptyFileAndAnEmptyStandardInputAreErrors() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data().write(to: folder.appendingPathComponent("zero.csv"))
        let zero = try CommandResult.run(["render", "--input", "zero.csv", "--output", "map.png"], in: folder)
        #expect(zero.status == 2)
        #expect(zero.stderr == "Error: zero.csv: the file is empty; expected a header row\n")
        let piped = try CommandResult.run(
            ["render", "--input", "-", "--output", "map.png"], in: folder, stdin: Data("lat,lon\n".utf8))
        #expect(piped.status == 2)
        #expect(
            piped.stderr.hasPrefix("Error: <stdin> has no points and there are no overlays to fit the map to"),
            "\(piped.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("map.png").path))
    }
}
