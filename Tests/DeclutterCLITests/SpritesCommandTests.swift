import DeclutterCommandLine
import DeclutterMap
import DeclutterMapContent
import DeclutterRender
import DeclutterStyle
import DeclutterTesting
import Foundation
import Testing

@Suite struct SpritesCommandTests {
    @Test func writesSheetsManifestAndSVGQuietlyWhenPiped() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let style = folder.appendingPathComponent("small.json")
        var json = try String(contentsOfFile: tandmStyle, encoding: .utf8)
        json = json.replacingOccurrences(
            of: "\"categories\": [",
            with:
                "\"sprites\": {\"exactCounts\": [2, 9], \"countSteps\": [10], \"shareStep\": 0.5},\n  \"categories\": ["
        )
        try json.write(to: style, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("tandm"),
            withDestinationURL: packageRoot.appendingPathComponent("Styles/tandm"))
        let result = try CommandResult.run(
            ["sprites", "--style", "small.json", "--output", "out/sprites", "--ratios", "1,3"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)  // no progress bar when stderr is not a terminal
        #expect(
            result.stdout.hasPrefix(
                "wrote sprite.png, sprite.json, sprite@3x.png, sprite@3x.json, sprite.manifest.json, sprite.svg to out/sprites: 39 names,"
            ))
        let out = folder.appendingPathComponent("out/sprites")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
                == [
                    "sprite.json", "sprite.manifest.json", "sprite.png", "sprite.svg", "sprite@3x.json",
                    "sprite@3x.png",
                ])
        let index =
            try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("sprite@3x.json")))
            as? [String: [String: Int]]
        #expect(index?["cluster-10+-tricycle50-bicycle50"]?["pixelRatio"] == 3)
        #expect(index?["cluster-10+-tricycle50-bicycle50"]?["width"] == 120)
        let sheet = try RGBAImage(contentsOf: out.appendingPathComponent("sprite@3x.png"))
        #expect(sheet.width % 3 == 0 && sheet.height % 3 == 0)
    }

    @Test(arguments: [
        (["--style", "nosuch.json"], "nosuch.json: cannot read the style file (no such file)"),
        (["--style", "bad.json"], "bad.json: sprites.shareStep: expected a step that divides 100 %"),
        (
            ["--style", tandmStyle, "--ratios", "1,4"],
            "Error: The value '1,4' is invalid for '--ratios <1,2,3>'\nHelp:  --ratios <1,2,3>  "
                + "Pixel ratios, one or more of 1, 2, 3 separated by commas; default: the style's sprites.ratios."
        ),
        (["--style", tandmStyle, "--spacing", "100"], "--spacing must be in 0…64, got 100"),
        (["--style", tandmStyle, "--spacing", "-1"], "--spacing must be in 0…64, got -1"),
    ])
    func badInputExitsTwoAndWritesNothing(arguments: [String], message: String) throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(
            ##"{"font": "DejaVu Sans", "cluster": {"buckets": [{"minimumCount": 2, "diameter": 40, "innerDiameter": 24, "fontSize": 20}]}, "categories": [{"name": "a", "color": "#000000"}], "sprites": {"shareStep": 0.3}}"##
                .utf8
        )
        .write(to: folder.appendingPathComponent("bad.json"))
        let result = try CommandResult.run(["sprites"] + arguments + ["--output", "out"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
    }

    /// A sheet past 4,096 px, a texture some devices' MapLibre cannot hold, is warned about.
    @Test func aSheetPastTheTextureLimitIsSaid() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandResult.run(
            ["sprites", "--style", "default", "--ratios", "3", "--output", "sheet"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr
                == "warning: sprite@3x.png is 5946×5808 px: past 4096 px, some devices' MapLibre cannot use it as one "
                + "texture (leave 3 out of --ratios; fewer icons: a larger sprites.shareStep, fewer sprites.exactCounts "
                + "or countSteps)\n")
    }

    /// Sheets of a pixel ratio not asked for, left by an earlier run, are named: MapLibre would load them on such
    /// screens. Nothing is deleted.
    @Test func sheetsLeftFromAnEarlierRunAreSaid() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try CommandResult.run(
            ["sprites", "--style", "tandm", "--ratios", "1,2", "--output", "sheet"], in: folder)
        #expect(first.status == 0 && first.stderr.isEmpty, "\(first.stderr)")
        let again = try CommandResult.run(
            ["sprites", "--style", "tandm", "--ratios", "1", "--output", "sheet"], in: folder)
        #expect(again.status == 0)
        #expect(
            again.stderr
                == "warning: sprite@2x.png, sprite@2x.json in sheet are left from an earlier run and do not match this "
                + "sheet; MapLibre on a screen of that pixel ratio loads them: delete them, or add their ratio to --ratios\n"
        )
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("sheet/sprite@2x.png").path))
    }

    /// An output folder under a file is said as such, not as Foundation's error number.
    @Test func anOutputUnderAFileIsSaid() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("x".utf8).write(to: folder.appendingPathComponent("afile"))
        let result = try CommandResult.run(
            ["sprites", "--style", "tandm", "--ratios", "1", "--output", "afile/sub/sheet"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr == "Error: cannot write afile/sub/sheet: afile is not a folder\n", "\(result.stderr)")
    }

    /// A style whose sheet would be too large is named by its file, as its other errors are.
    @Test func aSheetOverTheIconLimitNamesTheStyleFile() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(
            ##"{"font": "DejaVu Sans", "cluster": {"buckets": [{"minimumCount": 2, "diameter": 40, "innerDiameter": 24, "fontSize": 20}]}, "categories": [{"name": "a", "color": "#000000", "clusteringIdentifier": "g"}, {"name": "b", "color": "#ffffff", "clusteringIdentifier": "g"}], "sprites": {"exactCounts": [2, 999], "shareStep": 0.01}}"##
                .utf8
        )
        .write(to: folder.appendingPathComponent("huge.json"))
        let result = try CommandResult.run(["sprites", "--style", "huge.json", "--output", "out"], in: folder)
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix(
                "Error: huge.json: sprites: the sprite sheet would hold 101103 icons, more than 20000;"),
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
    }
}
