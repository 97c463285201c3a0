import DeclutterTesting
import Foundation
import Testing

/// `declutter diff` never destroys what it compares: outputs are checked before any work, a report replaces only a
/// report, links are followed, and masks that cannot be what was meant are said.
@Suite struct DiffSafetyTests {
    /// The files under `folder`, relative, sorted.
    static func listing(_ folder: URL) -> [String] {
        (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted()
    }

    @Test func aReportReplacesOnlyAReport() throws {
        let folder = try DiffFolderTests.folders()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("src")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        try Data("important".utf8).write(to: source.appendingPathComponent("main.c"))
        let refused = try CommandResult.run(["diff", "expected", "actual", "--report", "src"], in: folder)
        #expect(refused.status == 2)
        #expect(
            refused.stderr
                == "Error: cannot write src: the folder holds 1 entry and is not a report (a report is replaced whole, "
                + "which would delete them); name a new or empty folder\n")
        #expect(Self.listing(source) == ["main.c"])
        // A report written before is replaced, and so is one made before reports carried their mark.
        #expect(try CommandResult.run(["diff", "expected", "actual", "--report", "report"], in: folder).status == 1)
        let again = try CommandResult.run(["diff", "expected", "actual", "--report", "report"], in: folder)
        #expect(again.status == 1, "\(again.stderr)")
        let page = folder.appendingPathComponent("report/index.html")
        try Data("<html>an older report</html>".utf8).write(to: page)
        #expect(try CommandResult.run(["diff", "expected", "actual", "--report", "report"], in: folder).status == 1)
        #expect(try String(contentsOf: page, encoding: .utf8).contains("declutter ComparisonReport"))
    }

    @Test func aReportHoldingTheComparedFoldersIsRefused() throws {
        let folder = try DiffFolderTests.folders()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = Self.listing(folder)
        let result = try CommandResult.run(["diff", "expected", "actual", "--report", "."], in: folder)
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "Error: --report . holds the expected folder expected: the report replaces its folder whole, which "
                + "would delete it; choose a folder of its own\n")
        #expect(Self.listing(folder) == before)
        let pair = try CommandResult.run(
            ["diff", "expected/a.png", "actual/a.png", "--report", "expected"], in: folder)
        #expect(pair.status == 2)
        #expect(pair.stderr.contains("--report expected holds the first image expected/a.png"), "\(pair.stderr)")
        #expect(Self.listing(folder) == before)
    }

    @Test func anActualFolderInsideTheExpectedOneIsRefused() throws {
        let folder = try DiffFolderTests.folders()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = Self.listing(folder)
        let result = try CommandResult.run(["diff", "expected", "expected/sub", "--update", "--prune"], in: folder)
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "Error: expected/sub lies inside expected: its images would be compared as the other folder's too "
                + "(and --update --prune would remove them); keep the expected and actual folders apart\n")
        #expect(Self.listing(folder) == before)
    }

    @Test func outputsAreCheckedBeforeAnythingIsWritten() throws {
        let folder = try DiffFolderTests.folders()
        defer { try? FileManager.default.removeItem(at: folder) }
        let golden = try Data(contentsOf: folder.appendingPathComponent("expected/a.png"))
        let onImage = try CommandResult.run(["diff", "expected", "actual", "--json", "expected/a.png"], in: folder)
        #expect(onImage.status == 2)
        #expect(
            onImage.stderr == "Error: --json expected/a.png would overwrite an image of the expected folder expected\n")
        #expect(try Data(contentsOf: folder.appendingPathComponent("expected/a.png")) == golden)
        let before = Self.listing(folder)
        let missing = try CommandResult.run(
            ["diff", "expected", "actual", "--report", "report", "--json", "ok.json", "--junit", "nodir/j.xml"],
            in: folder)
        #expect(missing.status == 2)
        #expect(missing.stderr == "Error: cannot write nodir/j.xml: the folder nodir does not exist\n")
        #expect(Self.listing(folder) == before)
    }

    @Test func linkedImagesAreComparedAndALinkToNothingIsNamed() throws {
        let folder = try DiffFolderTests.folders()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = FileManager.default
        // e.png and the folder sub/ become links; sub/loop, a link to sub itself, is not followed round.
        try manager.removeItem(at: folder.appendingPathComponent("actual/e.png"))
        try manager.createSymbolicLink(
            atPath: folder.appendingPathComponent("actual/e.png").path, withDestinationPath: "../expected/e.png")
        try manager.moveItem(
            at: folder.appendingPathComponent("actual/sub"), to: folder.appendingPathComponent("elsewhere"))
        try manager.createSymbolicLink(
            atPath: folder.appendingPathComponent("actual/sub").path, withDestinationPath: "../elsewhere")
        try manager.createSymbolicLink(
            atPath: folder.appendingPathComponent("elsewhere/loop").path, withDestinationPath: ".")
        let result = try CommandResult.run(["diff", "expected", "actual", "--json", "-"], in: folder)
        #expect(result.status == 1)
        #expect(result.stdout.contains(#"{"path":"e.png","status":"unchanged""#), "\(result.stdout)")
        #expect(result.stdout.contains(#"{"path":"sub/b.png","status":"unchanged""#))
        #expect(
            result.stdout.contains(
                #""counts":{"unchanged":3,"within-tolerance":0,"changed":2,"new":1,"deleted":1,"unreadable":0}"#))
        try manager.createSymbolicLink(
            atPath: folder.appendingPathComponent("actual/gone.png").path, withDestinationPath: "nowhere.png")
        let dangling = try CommandResult.run(["diff", "expected", "actual", "--update", "--prune"], in: folder)
        #expect(dangling.status == 2)
        #expect(dangling.stderr == "Error: cannot read image actual/gone.png: a symbolic link to nothing\n")
        #expect(manager.fileExists(atPath: folder.appendingPathComponent("expected/c.png").path))
    }

    @Test func everyDamagedImageIsNamed() throws {
        let folder = try DiffFolderTests.folders()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("not a png".utf8).write(to: folder.appendingPathComponent("actual/sub/b.png"))
        try Data("not a png".utf8).write(to: folder.appendingPathComponent("actual/e.png"))
        let result = try CommandResult.run(["diff", "expected", "actual"], in: folder)
        #expect(result.status == 2)
        #expect(
            result.stderr == """
                Error: 2 images could not be compared:
                  cannot read image actual/e.png: not a PNG file (the signature is missing)
                  cannot read image actual/sub/b.png: not a PNG file (the signature is missing)

                """)
    }

    @Test func aSizeChangeLeavesNoEarlierDiffImage() throws {
        let folder = try DiffFolderTests.folders()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("stale".utf8).write(to: folder.appendingPathComponent("diff.png"))
        let result = try CommandResult.run(
            ["diff", "expected/d.png", "actual/d.png", "--diff-output", "diff.png"], in: folder)
        #expect(result.status == 1)
        #expect(
            result.stdout
                == "the sizes differ: expected/d.png is 4×4 px, actual/d.png is 5×4 px; no diff image for two sizes "
                + "(the earlier diff.png removed)\n")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("diff.png").path))
    }

    @Test func masksThatCannotBeMeantAreSaid() throws {
        let folder = try DiffFolderTests.folders()
        defer { try? FileManager.default.removeItem(at: folder) }
        // An opaque mask (no transparency) ignores every pixel.
        try DiffFolderTests.png().write(to: folder.appendingPathComponent("opaque.png"))
        let opaque = try CommandResult.run(
            ["diff", "expected/a.png", "actual/a.png", "--mask", "opaque.png"], in: folder)
        #expect(opaque.status == 0)
        #expect(opaque.stdout == "0 of 4×4 pixels differ (0.0000 %); 16 ignored\n")
        #expect(
            opaque.stderr
                == "warning: the masks ignore every pixel of a.png, so no difference there can show (a mask ignores the "
                + "pixels whose alpha is above 0: an image without transparency ignores all)\n")
        let outside = try CommandResult.run(["diff", "expected", "actual", "--ignore", "500,500,10,10"], in: folder)
        #expect(outside.status == 1)
        #expect(outside.stderr == "warning: --ignore 500,500,10,10 lies outside every image; it ignores nothing\n")
    }

    @Test func negativeValuesAreReadAsValues() throws {
        let folder = try DiffFolderTests.folders()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandResult.run(["diff", "expected", "actual", "--threshold", "-1"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("Error: --threshold must be in 0…1, got -1.0\n"), "\(result.stderr)")
        let pixels = try CommandResult.run(["diff", "expected", "actual", "--max-pixels", "-5"], in: folder)
        #expect(pixels.stderr.hasPrefix("Error: --max-pixels must be 0 or more, got -5\n"), "\(pixels.stderr)")
    }

    @Test func reportAnchorsAreOnePerPath() {
        #expect(ComparisonReport.anchor(for: "a b.png") == "image-a~20b.png")
        #expect(ComparisonReport.anchor(for: "a_b.png") == "image-a_b.png")
        #expect(ComparisonReport.anchor(for: "x/y.png") == "image-x/y.png")
        #expect(ComparisonReport.anchor(for: "x~y.png") == "image-x~7Ey.png")
        #expect(ComparisonReport.anchor(for: "é.png") == "image-~C3~A9.png")
        #expect(ComparisonReport.anchor(for: "cluster.42@2x.png") == "image-cluster.42@2x.png")
    }

    /// Hidden entries count: a folder holding only `.git` is not empty, and was deleted as one. A report's folder with
    /// anything beside its page and pictures is refused too, and so are outputs put inside it, which the next run
    /// would have deleted.
    @Test func aReportNeverReplacesWhatItDidNotWrite() throws {
        let folder = try DiffFolderTests.folders()
        defer { try? FileManager.default.removeItem(at: folder) }
        let site = folder.appendingPathComponent("site/.git")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        try Data("ref".utf8).write(to: site.appendingPathComponent("HEAD"))
        let hidden = try CommandResult.run(["diff", "expected", "actual", "--report", "site"], in: folder)
        #expect(hidden.status == 2)
        #expect(hidden.stderr.hasPrefix("Error: cannot write site: the folder holds 1 entry and is not a report"))
        #expect(Self.listing(folder.appendingPathComponent("site")) == [".git", ".git/HEAD"])
        let inside = try CommandResult.run(
            ["diff", "expected", "actual", "--report", "report", "--json", "report/r.json"], in: folder)
        #expect(inside.status == 2)
        #expect(
            inside.stderr
                == "Error: --json report/r.json is inside the --report folder report, which is replaced whole on every "
                + "run; write it beside the report\n")
        #expect(try CommandResult.run(["diff", "expected", "actual", "--report", "report"], in: folder).status == 1)
        try Data("mine".utf8).write(to: folder.appendingPathComponent("report/notes.txt"))
        let extra = try CommandResult.run(["diff", "expected", "actual", "--report", "report"], in: folder)
        #expect(extra.status == 2)
        #expect(
            extra.stderr
                == "Error: cannot write report: the report's folder also holds \"notes.txt\", which replacing the "
                + "report would delete; move it or name another folder\n")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("report/notes.txt").path))
    }

    /// A new report under a link into a compared folder is inside it, as the same path without the link is.
    @Test func aReportReachedThroughALinkIntoAComparedFolderIsRefused() throws {
        let folder = try DiffFolderTests.folders()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("el").path, withDestinationPath: "expected")
        let result = try CommandResult.run(["diff", "expected", "actual", "--report", "el/rep"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains("--report el/rep is inside the expected folder expected"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("expected/rep").path))
    }

    /// Names pair by their bytes: `café` with a precomposed é and with e and a combining accent are two files, and
    /// each is compared (they were one record, and the changed one passed).
    @Test func namesSpelledAlikeInUnicodeAreTwoFiles() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let red: [UInt8] = [255, 0, 0, 255]
        let composed = "caf\u{E9}.png", decomposed = "cafe\u{301}.png"
        let files: [(String, Data)] = [
            ("expected/" + composed, try DiffFolderTests.png()),
            ("actual/" + composed, try DiffFolderTests.png(painted: [(0, 0, red)])),
            ("expected/" + decomposed, try DiffFolderTests.png()), ("actual/" + decomposed, try DiffFolderTests.png()),
        ]
        for (path, data) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        let result = try CommandResult.run(["diff", "expected", "actual"], in: folder)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("2 images: 1 unchanged, 1 changed\n"), "\(result.stdout)")
    }

    /// Identical copies of a damaged PNG are named as a damaged pair is, not passed as unchanged.
    @Test func identicalDamagedImagesAreNamed() throws {
        let folder = try DiffFolderTests.folders()
        defer { try? FileManager.default.removeItem(at: folder) }
        let truncated = try DiffFolderTests.png().prefix(60)
        try truncated.write(to: folder.appendingPathComponent("expected/e.png"))
        try truncated.write(to: folder.appendingPathComponent("actual/e.png"))
        let result = try CommandResult.run(["diff", "expected", "actual"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("Error: cannot read image expected/e.png: "), "\(result.stderr)")
        // A damaged image in one folder only (its header whole, its data cut off) is named too, and so never
        // accepted by --update.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("expected/e.png"))
        let cut = try DiffFolderTests.png()
        try cut.prefix(cut.count - 20).write(to: folder.appendingPathComponent("actual/e.png"))
        let before = Self.listing(folder)
        let new = try CommandResult.run(["diff", "expected", "actual", "--update"], in: folder)
        #expect(new.status == 2)
        #expect(new.stderr.hasPrefix("Error: cannot read image actual/e.png: "), "\(new.stderr)")
        #expect(Self.listing(folder) == before)
    }

    /// Accepting an image of another size refuses while its mask keeps the old one (every later run refused the mask),
    /// and with `--json -` what was changed goes to standard error, leaving the JSON alone on standard output.
    @Test func acceptingKeepsMasksAndJSONWhole() throws {
        let folder = try DiffFolderTests.folders()
        defer { try? FileManager.default.removeItem(at: folder) }
        try DiffFolderTests.png(painted: [(1, 1, [255, 0, 0, 255])]).replacingAlpha().write(
            to: folder.appendingPathComponent("expected/d.mask.png"))
        let before = Self.listing(folder)
        let refused = try CommandResult.run(["diff", "expected", "actual", "--update"], in: folder)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("cannot write expected/d.png: would become 5×"), "\(refused.stderr)")
        #expect(Self.listing(folder) == before)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("expected/d.mask.png"))
        let accepted = try CommandResult.run(
            ["diff", "expected", "actual", "--update", "--prune", "--json", "-"], in: folder)
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect((try? JSONSerialization.jsonObject(with: Data(accepted.stdout.utf8))) != nil, "\(accepted.stdout)")
        #expect(accepted.stderr.contains("updated expected/a.png\n"), "\(accepted.stderr)")
    }

    /// Screenshots kept in another format are said, not passed over in a green run of nothing compared.
    @Test func imagesOfOtherFormatsAreSaid() throws {
        let folder = try DiffFolderTests.folders()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["actual/shot.gif", "actual/sub/shot.TIFF"] {
            try Data("gif".utf8).write(to: folder.appendingPathComponent(name))
        }
        let result = try CommandResult.run(["diff", "expected", "actual"], in: folder)
        #expect(result.status == 1)
        #expect(
            result.stderr.hasPrefix(
                "warning: actual: 2 images are not PNG, JPEG or WebP (shot.gif, sub/shot.TIFF) and not compared: "
                    + "convert them to PNG\n"
            ),
            "\(result.stderr)")
    }

    /// A mask that masks nothing — misspelt, its image renamed, or put in the actual folder — is said: the changes it
    /// was meant to hide are counted.
    @Test func masksThatMaskNothingAreSaid() throws {
        let folder = try DiffFolderTests.folders()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mask = try Data(contentsOf: folder.appendingPathComponent("expected/m.mask.png"))
        for name in ["expected/mm.mask.png", "expected/sub/b.MASK.png", "actual/a.mask.png"] {
            try mask.write(to: folder.appendingPathComponent(name))
        }
        let result = try CommandResult.run(["diff", "expected", "actual"], in: folder)
        #expect(result.status == 1)
        #expect(
            result.stderr.hasPrefix(
                "warning: expected: 2 masks mask nothing (mm.mask.png, sub/b.MASK.png): no image of its name is beside "
                    + "it\nwarning: actual: 1 mask masks nothing (a.mask.png): masks are read beside the expected images "
                    + "only\n"),
            "\(result.stderr)")
        // The mask that has its image is not among them.
        #expect(!result.stderr.contains(" m.mask.png"), "\(result.stderr)")
    }
}
