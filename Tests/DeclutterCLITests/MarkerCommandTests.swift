import DeclutterClustering
import DeclutterCommandLine
import DeclutterRender
import DeclutterServer
import DeclutterStyle
import DeclutterSupport
import DeclutterTesting
import Foundation
import Testing

@Suite struct MarkerCommandTests {
    @Test func drawsAClusterIconAtAScale() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandResult.run(
            [
                "marker", "--style", tandmStyle, "--counts", "bicycle=3,tricycle=2", "--scale", "2",
                "--output", "five.png",
            ], in: folder)
        #expect(result.status == 0)
        #expect(result.stdout == "wrote five.png: cluster 40×40 pt (80×80 px)\n")
        let image = try RGBAImage(contentsOf: folder.appendingPathComponent("five.png"))
        #expect(image.width == 80 && image.height == 80)
        // The same pixels as the golden reference drawn through the library.
        let reference = try RGBAImage(
            contentsOf: packageRoot.appendingPathComponent("Snapshots/MarkerGoldenTests/tandmClusterIcons.5@2x.png"))
        #expect(image == reference)
    }

    @Test func aTotalOfOneDrawsABalloonAndBundledStylesGoByName() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (format, prefix) in [("svg", "<?xml"), ("pdf", "%PDF-"), ("png", "\u{89}PNG")] {
            let result = try CommandResult.run(
                ["marker", "--style", "tandm", "--counts", "unicycle=1", "--output", "u.\(format)"], in: folder)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("wrote u.\(format): balloon 30×40 pt"))
            let data = try Data(contentsOf: folder.appendingPathComponent("u.\(format)"))
            #expect(data.starts(with: prefix.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }))
        }
    }

    /// Bad input: exit 2, a message naming the problem, and no output file.
    @Test(arguments: [
        (
            ["--style", "missing.json", "--counts", "bicycle=2"],
            "missing.json: cannot read the style file (no such file)"
        ),
        (["--style", "bad.json", "--counts", "bicycle=2"], "bad.json: categories[0].color: expected a colour"),
        (
            ["--style", "TANDM", "--counts", "car=2"],
            "unknown category \"car\"; the style has: tricycle, bicycle, unicycle"
        ),
        (
            ["--style", "TANDM", "--counts", "bicycle=1,bicycle=2"],
            "\"bicycle\" is given twice; expected each category once"
        ),
        (
            ["--style", "TANDM", "--counts", "bicycle=-2"],
            "the count for \"bicycle\" must be a whole number ≥ 0, got \"-2\""
        ),
        (
            ["--style", "TANDM", "--counts", "bicycle=two"],
            "the count for \"bicycle\" must be a whole number ≥ 0, got \"two\""
        ),
        (["--style", "TANDM", "--counts", "bicycle=2", "--scale", "4"], "--scale must be 1, 2 or 3, got 4"),
        (
            ["--style", "nosuchstyle", "--counts", "bicycle=2"],
            "nosuchstyle: no such style file or bundled style; bundled styles: airports, default, tandm"
        ),
        (
            ["--style", "TANDM", "--counts", "bicycle=99999999999999999999"],
            "the count for \"bicycle\" is too large (at most 1000000000 members in all)"
        ),
        (["--style", "./tandm", "--counts", "bicycle=2"], "./tandm: is a folder, not a style file"),
        (
            ["--style", "broken.json", "--counts", "bicycle=2"],
            "broken.json: not valid JSON: line 2, column 4: expected a string key"
        ),
    ])
    func badInputExitsTwo(arguments: [String], message: String) throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(
            #"{"font": "DejaVu Sans", "cluster": {"buckets": [{"minimumCount": 2, "diameter": 40, "innerDiameter": 24, "fontSize": 20}]}, "categories": [{"name": "a", "color": "red"}]}"#
                .utf8
        )
        .write(to: folder.appendingPathComponent("bad.json"))
        try Data("{\"font\": 1,\n   ,}".utf8).write(to: folder.appendingPathComponent("broken.json"))
        try FileManager.default.copyItem(atPath: tandmStyle, toPath: folder.appendingPathComponent("TANDM").path)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("tandm"),
            withDestinationURL: packageRoot.appendingPathComponent("Styles/tandm"))
        let result = try CommandResult.run(["marker"] + arguments + ["--output", "out.png"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.png").path))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
                "TANDM", "bad.json", "broken.json", "tandm",
            ])
    }

    @Test func aMissingStylesFolderIsNamed() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandResult.run(
            ["marker", "--style", "tandm", "--counts", "bicycle=2", "--output", "out.png"], in: folder,
            environment: ["DECLUTTER_STYLES": "/no/such/styles"])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains(
                "tandm: no such style file, and DECLUTTER_STYLES names /no/such/styles, which is not a folder"))
        // A `.json` ending still names the bundled style when no such file is here.
        let named = try CommandResult.run(
            ["marker", "--style", "tandm.json", "--counts", "bicycle=2", "--output", "out.png"], in: folder)
        #expect(named.status == 0, "\(named.stderr)")
    }

    @Test func badOutputsExitTwoAndWriteNothing() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let unknown = try CommandResult.run(
            ["marker", "--style", tandmStyle, "--counts", "bicycle=2", "--output", "out.jpg"], in: folder)
        #expect(unknown.status == 2)
        #expect(
            unknown.stderr.contains("out.jpg: unknown output format; expected a file name ending in .png, .svg or .pdf")
        )
        let unwritable = try CommandResult.run(
            ["marker", "--style", tandmStyle, "--counts", "bicycle=2", "--output", "no/such/dir/out.png"], in: folder)
        #expect(unwritable.status == 2)
        #expect(unwritable.stderr.contains("cannot write no/such/dir/out.png: the folder no/such/dir does not exist"))
        let missing = try CommandResult.run(["marker", "--style", tandmStyle, "--counts", "bicycle=2"], in: folder)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("Missing expected argument '--output <file>'"))
        let folderPath = try CommandResult.run(
            ["marker", "--style", tandmStyle, "--counts", "bicycle=2", "--output", "out.png/"], in: folder)
        #expect(folderPath.status == 2)
        #expect(
            folderPath.stderr.contains("cannot write out.png: the path ends in /, which names a folder, not a file"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        try Data("text".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let underFile = try CommandResult.run(
            ["marker", "--style", tandmStyle, "--counts", "bicycle=2", "--output", "notes.txt/out.png"], in: folder)
        #expect(underFile.status == 2)
        #expect(underFile.stderr.contains("cannot write notes.txt/out.png: notes.txt is not a folder"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["notes.txt"])
    }

    /// A glyph image the style reads is one of the command's inputs: writing over it would damage the style.
    @Test func aGlyphImageOfTheStyleIsNotOverwritten() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(
            at: packageRoot.appendingPathComponent("Styles/tandm"), to: folder.appendingPathComponent("tandm"))
        try FileManager.default.copyItem(atPath: tandmStyle, toPath: folder.appendingPathComponent("style.json").path)
        let glyph = folder.appendingPathComponent("tandm/Bicycle_2x.png")
        let before = try Data(contentsOf: glyph)
        for (command, output) in [
            (["marker", "--counts", "bicycle=4"], "./tandm/Bicycle_2x.png"),
            (["sprites", "--ratios", "1"], "tandm"),
        ] {
            // sprites writes into a folder: its sprite.png is made the glyph's name by a link.
            if command[0] == "sprites" {
                try FileManager.default.createSymbolicLink(
                    at: folder.appendingPathComponent("tandm/sprite.png"), withDestinationURL: glyph)
            }
            let result = try CommandResult.run(command + ["--style", "style.json", "--output", output], in: folder)
            #expect(result.status == 2)
            #expect(
                result.stderr.contains("would overwrite the --style's glyph image file \(glyph.path)"),
                "\(result.stderr)")
            #expect(try Data(contentsOf: glyph) == before)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("tandm/sprite.json").path))
    }

    @Test func aLinkedOutputReplacesItsTargetAndKeepsTheLink() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("old".utf8).write(to: folder.appendingPathComponent("target.png"))
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("link.png").path, withDestinationPath: "target.png")
        let result = try CommandResult.run(
            ["marker", "--style", tandmStyle, "--counts", "bicycle=2", "--output", "link.png"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent("link.png").path)
                == "target.png")
        #expect(try RGBAImage(contentsOf: folder.appendingPathComponent("target.png")).width == 40)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["link.png", "target.png"])
    }

    @Test func warnsOfAMissingFontAndOfALabelOnABalloon() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let style = try String(contentsOfFile: tandmStyle, encoding: .utf8).replacingOccurrences(
            of: "DejaVu Sans Bold", with: "No Such Font 123")
        try Data(style.utf8).write(to: folder.appendingPathComponent("nofont.json"))
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("tandm"),
            withDestinationURL: packageRoot.appendingPathComponent("Styles/tandm"))
        let noFont = try CommandResult.run(
            ["marker", "--style", "nofont.json", "--counts", "bicycle=2", "--output", "a.png"], in: folder)
        #expect(noFont.status == 0)
        #expect(
            noFont.stderr
                == "warning: nofont.json: font: no installed font is \"No Such Font 123\"; text is drawn in DejaVu Sans\n"
        )
        let installed = try CommandResult.run(
            ["marker", "--style", tandmStyle, "--counts", "bicycle=2", "--output", "b.png"], in: folder)
        #expect(installed.status == 0 && installed.stderr.isEmpty)
        let balloon = try CommandResult.run(
            ["marker", "--style", tandmStyle, "--counts", "bicycle=1", "--label", "99", "--output", "c.png"], in: folder
        )
        #expect(balloon.status == 0)
        #expect(
            balloon.stderr == "warning: --label is drawn on cluster icons only; a total of 1 draws a balloon marker\n")
        let mixed = try CommandResult.run(
            ["marker", "--style", tandmStyle, "--counts", "bicycle=2,unicycle=1", "--output", "d.png"], in: folder)
        #expect(mixed.status == 0)
        #expect(
            mixed.stderr
                == "warning: --counts mixes clustering identifiers: bicycle (\"bicycle\"), unicycle (\"unicycle\"); no map "
                + "clusters these together, as MapKit clusters only annotations of one identifier\n")
    }

    @Test func labelReplacesTheCount() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let labelled = try CommandResult.run(
            ["marker", "--style", tandmStyle, "--counts", "bicycle=100", "--label", "100+", "--output", "a.png"],
            in: folder)
        let plain = try CommandResult.run(
            ["marker", "--style", tandmStyle, "--counts", "bicycle=100", "--output", "b.png"], in: folder)
        #expect(labelled.status == 0 && plain.status == 0)
        #expect(
            try RGBAImage(contentsOf: folder.appendingPathComponent("a.png"))
                != RGBAImage(contentsOf: folder.appendingPathComponent("b.png")))
        let tooLong = try CommandResult.run(
            ["marker", "--style", tandmStyle, "--counts", "bicycle=2", "--label", "123456789", "--output", "c.png"],
            in: folder)
        #expect(tooLong.status == 2)
        #expect(tooLong.stderr.contains("--label must be 1 to 8 characters, got 9: \"123456789\""))
        // A very long label is said by its start, not echoed whole.
        let huge = try CommandResult.run(
            [
                "marker", "--style", tandmStyle, "--counts", "bicycle=2", "--label",
                String(repeating: "W", count: 100_000),
                "--output", "c.png",
            ], in: folder)
        #expect(huge.status == 2)
        #expect(huge.stderr.contains("got 100000: \"\(String(repeating: "W", count: 39))…\""))
        #expect(huge.stderr.utf8.count < 1000)
        // A line break would draw a second line out of the ring.
        let twoLines = try CommandResult.run(
            ["marker", "--style", tandmStyle, "--counts", "bicycle=2", "--label", "a\nb", "--output", "c.png"],
            in: folder)
        #expect(twoLines.status == 2)
        #expect(
            twoLines.stderr.contains("--label must be one line of text without control characters, got \"a\\u{A}b\""))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("c.png").path))
        #expect(labelled.stderr.isEmpty)
        // A character no font has (U+0378 is unassigned) is drawn as a box of its code, and said (the message escapes
        // what a terminal may not show).
        let boxed = try CommandResult.run(
            ["marker", "--style", tandmStyle, "--counts", "bicycle=2", "--label", "A\u{378}", "--output", "d.png"],
            in: folder)
        #expect(boxed.status == 0)
        #expect(
            boxed.stderr
                == "warning: --label \"A\\u{378}\": no installed font has a glyph for 1 of its characters, drawn as boxes\n"
        )
    }

    @Test func helpExitsZero() throws {
        let result = try CommandResult.run(["marker", "--help"], in: packageRoot)
        #expect(result.status == 0)
        #expect(result.stdout.contains("--counts <cat=n,...>"))
    }
}
