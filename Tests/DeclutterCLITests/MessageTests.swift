import DeclutterRender
import DeclutterStyle
import DeclutterTesting
import Foundation
import Testing

/// What the user reads when input is wrong: the place, the expectation, and nothing a file could use to drive the
/// terminal.
@Suite struct MessageTests {
    /// An ESC [2J in a CSV field would clear the user's screen if printed raw.
    @Test func controlCharactersFromAFileAreEscaped() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("lat,lon,kind\n37.7,-122.4,\u{1B}[2Jbus\n37.71,-122.41,tram\n".utf8).write(
            to: folder.appendingPathComponent("c.csv"))
        let result = try CommandResult.run(
            ["render", "--input", "c.csv", "--category", "kind", "--size", "100x100", "--output", "o.png"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("\u{1B}"))
        #expect(
            result.stderr.contains(#"note: --category kind: "\u{1B}[2Jbus" and 1 more are not categories of style"#))
    }

    /// A style of 1,000 categories named them all in one line.
    @Test func longListsAreCut() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let categories = (0..<1000).map { ##"{"name": "c\##($0)", "color": "#000"}"## }.joined(separator: ", ")
        let style =
            #"{"font": "DejaVu Sans", "cluster": {"buckets": [{"minimumCount": 2, "diameter": 40, "innerDiameter": 24, "fontSize": 20}]}, "categories": [\#(categories)]}"#
        try Data(style.utf8).write(to: folder.appendingPathComponent("many.json"))
        let result = try CommandResult.run(
            ["marker", "--style", "many.json", "--counts", "bus=3", "--output", "m.png"], in: folder)
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "Error: unknown category \"bus\"; the style has: c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 and 990 more\n"
        )
    }

    @Test func notANumberIsCalledSo() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandResult.run(
            ["render", "--input", "-", "--max-zoom", "nan", "--output", "o.png"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("Error: --max-zoom must be in 0…22, got nan\n"))
    }

    /// A result that cannot be written (a full disk, a closed pipe) is an error, not a silent success.
    @Test func aFullStandardOutputFails() throws {
        let pixelmatch = packageRoot.appendingPathComponent("Tests/DeclutterTestingTests/Fixtures/pixelmatch")
        let result = try CommandResult.run(
            ["diff", "1a.png", "1a.png", "--json", "-"], in: pixelmatch, stdoutFile: "/dev/full")
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("Error: cannot write the result to standard output ("))
    }

    /// Readers disagree on a repeated key (the first or the last wins, or both are joined), so it is refused.
    @Test func aRepeatedFeaturesKeyIsRefused() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"type": "FeatureCollection", "features": [], "features": []}"#.utf8).write(
            to: folder.appendingPathComponent("f.json"))
        let result = try CommandResult.run(["render", "--input", "f.json", "--output", "o.png"], in: folder)
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "Error: f.json: not valid JSON (line 1, column 58: the key \"features\" appears twice in this object)\n"
        )
    }
}
