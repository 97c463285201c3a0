import DeclutterClustering
import DeclutterCommandLine
import DeclutterGeometry
import DeclutterInput
import DeclutterRender
import DeclutterTesting
import Foundation
import Testing

/// `declutter diff EXPECTED_DIR ACTUAL_DIR`: pairing, the printed lines, the report, JSON, JUnit, masks and `--update`.
@Suite struct DiffFolderTests {
    /// A 4×4 white image with the pixels given painted.
    static func png(width: Int = 4, painted: [(Int, Int, [UInt8])] = []) throws -> Data {
        var image = RGBAImage(width: width, height: 4, pixels: [UInt8](repeating: 255, count: width * 16))
        for (x, y, colour) in painted {
            image.pixels.replaceSubrange((y * width + x) * 4..<(y * width + x) * 4 + 4, with: colour)
        }
        return try image.pngData()
    }

    /// expected/ and actual/ with one image of each kind: a.png changed, c.png deleted, d.png resized, n.png new,
    /// e.png and sub/b.png the same, m.png changed where its mask (m.mask.png) ignores.
    static func folders() throws -> URL {
        let folder = try scratchFolder()
        let red: [UInt8] = [255, 0, 0, 255]
        let files: [(String, Data)] = [
            ("expected/a.png", try png()), ("actual/a.png", try png(painted: [(0, 0, red)])),
            ("expected/sub/b.png", try png()), ("actual/sub/b.png", try png()),
            ("expected/c.png", try png()),
            ("expected/d.png", try png()), ("actual/d.png", try png(width: 5)),
            ("expected/e.png", try png()), ("actual/e.png", try png()),
            ("expected/m.png", try png()), ("actual/m.png", try png(painted: [(3, 3, red)])),
            ("expected/m.mask.png", try png(painted: [(3, 3, red)]).replacingAlpha()),
            ("actual/n.png", try png()),
            ("actual/notes.txt", Data("not an image".utf8)),
        ]
        for (path, data) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        return folder
    }

    @Test func listsEachImageAndWritesTheOutputs() throws {
        let folder = try Self.folders()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandResult.run(
            ["diff", "expected", "actual", "--report", "report", "--json", "result.json", "--junit", "junit.xml"],
            in: folder)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stdout == """
                changed: a.png: 1 pixel differs (6.2500 %)
                deleted: c.png (was 4×4 px)
                changed: d.png: size changed from 4×4 to 5×4 px
                new: n.png (4×4 px)
                7 images: 3 unchanged, 2 changed, 1 new, 1 deleted; report: report/index.html

                """)
        let report = folder.appendingPathComponent("report")
        for path in [
            "index.html", "expected/a.png", "actual/a.png", "diff/a.png", "expected/c.png", "expected/d.png",
            "actual/d.png", "actual/n.png",
        ] {
            #expect(FileManager.default.fileExists(atPath: report.appendingPathComponent(path).path), "\(path)")
        }
        for path in ["diff/d.png", "expected/e.png", "actual/m.png", "diff/m.png"] {
            #expect(!FileManager.default.fileExists(atPath: report.appendingPathComponent(path).path), "\(path)")
        }
        #expect(try RGBAImage(contentsOf: report.appendingPathComponent("diff/a.png"))[0, 0] == [255, 0, 0, 255])
        let page = try String(contentsOf: report.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(
            page.contains(
                #"<body data-images="7" data-changed="2" data-new="1" data-deleted="1" data-within-tolerance="0" data-unchanged="3">"#
            ))
        #expect(
            page.contains(#"<figcaption>expected 4×4 px</figcaption></figure>"#)
                && page.contains(#"<figcaption>actual 5×4 px</figcaption></figure>"#))
        let json = try String(contentsOf: folder.appendingPathComponent("result.json"), encoding: .utf8)
        #expect(
            json.hasPrefix(
                #"{"expected":"expected","actual":"actual","report":"report","counts":{"unchanged":3,"within-tolerance":0,"changed":2,"new":1,"deleted":1,"unreadable":0},"images":["#
            ))
        #expect(
            json.contains(
                #"{"path":"a.png","status":"changed","expected":[4,4],"actual":[4,4],"mismatched":1,"ratio":0.0625,"ignored":0,"diff":"report/diff/a.png"}"#
            ))
        #expect(
            json.contains(
                #"{"path":"m.png","status":"unchanged","expected":[4,4],"actual":[4,4],"mismatched":0,"ratio":0,"ignored":1,"diff":null}"#
            ))
        #expect(
            json.contains(
                #"{"path":"n.png","status":"new","expected":null,"actual":[4,4],"mismatched":null,"ratio":null,"ignored":0,"diff":null}"#
            ))
        let junit = try String(contentsOf: folder.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(
            junit.contains(
                #"<testsuite name="declutter diff expected actual" tests="7" failures="4" errors="0" skipped="0">"#))
        #expect(junit.contains(#"<testcase classname="declutter diff expected actual" name="sub/b.png"/>"#))
        #expect(
            junit.contains(
                """
                <testcase classname="declutter diff expected actual" name="a.png">
                      <failure type="changed" message="1 pixel differs (6.2500 %)">1 pixel differs (6.2500 %)
                ratio: 0.0625
                diff: report/diff/a.png
                report: report/index.html#image-a.png</failure>
                """))
    }

    /// An image within the tolerances passes in JUnit with what was tolerated as its output, not as a bare pass.
    @Test func aToleratedImagePassesInJUnitSayingWhatWasTolerated() throws {
        let folder = try Self.folders()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandResult.run(
            ["diff", "expected", "actual", "--max-pixels", "1", "--report", "report", "--junit", "junit.xml"],
            in: folder)
        #expect(result.status == 1, "\(result.stderr)")
        let junit = try String(contentsOf: folder.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(
            junit.contains(
                """
                <testcase classname="declutter diff expected actual" name="a.png">
                      <system-out>1 pixel differs (6.2500 %), within the tolerances
                ratio: 0.0625
                diff: report/diff/a.png
                report: report/index.html#image-a.png</system-out>
                    </testcase>
                """), "\(junit)")
    }

    @Test func ignoredRegionsAndMasksHold() throws {
        let folder = try Self.folders()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ignored = try CommandResult.run(
            ["diff", "expected", "actual", "--ignore", "0,0,1,1", "--json", "-"], in: folder)
        #expect(ignored.status == 1)
        #expect(
            ignored.stdout.contains(
                #"{"path":"a.png","status":"unchanged","expected":[4,4],"actual":[4,4],"mismatched":0,"ratio":0,"ignored":1,"diff":null}"#
            ))
        try Self.png(painted: [(0, 0, [0, 0, 0, 255])]).replacingAlpha().write(
            to: folder.appendingPathComponent("mask.png"))
        let masked = try CommandResult.run(
            ["diff", "expected/a.png", "actual/a.png", "--mask", "mask.png"], in: folder)
        #expect(masked.status == 0)
        #expect(masked.stdout == "0 of 4×4 pixels differ (0.0000 %); 1 ignored\n")
        // A mask file beside the expected image applies to one pair too, and the line names it.
        try FileManager.default.moveItem(
            at: folder.appendingPathComponent("mask.png"), to: folder.appendingPathComponent("expected/a.mask.png"))
        let beside = try CommandResult.run(["diff", "expected/a.png", "actual/a.png"], in: folder)
        #expect(beside.status == 0)
        #expect(beside.stdout == "0 of 4×4 pixels differ (0.0000 %); 1 ignored (masked by expected/a.mask.png)\n")
        try FileManager.default.removeItem(at: folder.appendingPathComponent("expected/a.mask.png"))
        let wrongSize = try CommandResult.run(
            ["diff", "expected", "actual", "--mask", "actual/d.png", "--report", "report"], in: folder)
        #expect(wrongSize.status == 2)
        #expect(
            wrongSize.stderr.contains(
                "the mask actual/d.png is 5×4 px but the image expected/a.png is 4×4 px; a mask has its image's size"),
            "\(wrongSize.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("report").path))
    }

    @Test func updateAcceptsTheActualImages() throws {
        let folder = try Self.folders()
        defer { try? FileManager.default.removeItem(at: folder) }
        let update = try CommandResult.run(["diff", "expected", "actual", "--update", "--prune"], in: folder)
        #expect(update.status == 0, "\(update.stderr)")
        #expect(
            update.stdout.hasSuffix(
                """
                updated expected/a.png
                updated expected/d.png
                added expected/n.png
                removed expected/c.png
                updated 3 and removed 1 expected images

                """), "\(update.stdout)")
        #expect(
            try Data(contentsOf: folder.appendingPathComponent("expected/a.png"))
                == Data(contentsOf: folder.appendingPathComponent("actual/a.png")))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("expected/m.mask.png").path))
        let again = try CommandResult.run(["diff", "expected", "actual"], in: folder)
        #expect(again.status == 0)
        #expect(again.stdout == "6 images: 6 unchanged, 0 changed\n")
    }

    /// A symbolic link in the expected folder never carries `--update` outside it: pruning an image in a linked folder
    /// would delete another file, accepting one through a linked file would replace it. Nothing changes; a linked
    /// image itself is pruned as a link, its file kept.
    @Test func updateChangesNothingOutsideTheExpectedFolder() throws {
        let folder = try Self.folders()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = FileManager.default
        let outside = folder.appendingPathComponent("outside")
        try manager.createDirectory(at: outside.appendingPathComponent("shared"), withIntermediateDirectories: true)
        let kept = try Self.png(painted: [(1, 1, [0, 0, 255, 255])])
        try kept.write(to: outside.appendingPathComponent("shared/keep.png"))
        try kept.write(to: outside.appendingPathComponent("file.png"))
        try manager.createSymbolicLink(
            atPath: folder.appendingPathComponent("expected/shared").path, withDestinationPath: "../outside/shared")
        let pruned = try CommandResult.run(["diff", "expected", "actual", "--update", "--prune"], in: folder)
        #expect(pruned.status == 2)
        #expect(
            pruned.stderr.hasSuffix(
                "cannot write expected/shared/keep.png: a symbolic link takes its folder outside the expected folder "
                    + "expected, where pruning would delete another file; nothing was changed\n"), "\(pruned.stderr)")
        #expect(try Data(contentsOf: outside.appendingPathComponent("shared/keep.png")) == kept)
        #expect(try Data(contentsOf: folder.appendingPathComponent("expected/a.png")) == Self.png())

        try manager.removeItem(at: folder.appendingPathComponent("expected/shared"))
        try manager.removeItem(at: folder.appendingPathComponent("expected/a.png"))
        try manager.createSymbolicLink(
            atPath: folder.appendingPathComponent("expected/a.png").path, withDestinationPath: "../outside/file.png")
        let accepted = try CommandResult.run(["diff", "expected", "actual", "--update"], in: folder)
        #expect(accepted.status == 2)
        #expect(accepted.stderr.contains("cannot write expected/a.png: a symbolic link takes it outside"))
        #expect(try Data(contentsOf: outside.appendingPathComponent("file.png")) == kept)

        // Linked images pruned as links.
        try manager.removeItem(at: folder.appendingPathComponent("expected/a.png"))
        try Self.png().write(to: folder.appendingPathComponent("expected/a.png"))
        try manager.createSymbolicLink(
            atPath: folder.appendingPathComponent("expected/linked.png").path,
            withDestinationPath: "../outside/file.png")
        let links = try CommandResult.run(["diff", "expected", "actual", "--update", "--prune"], in: folder)
        #expect(links.status == 0, "\(links.stderr)")
        #expect(links.stdout.contains("removed expected/linked.png\n"))
        #expect(try Data(contentsOf: outside.appendingPathComponent("file.png")) == kept)
    }

    /// `--update` without `--prune` leaves the deleted images, which still fail: it says so and exits 1.
    @Test func deletedImagesLeftByUpdateStillFail() throws {
        let folder = try Self.folders()
        defer { try? FileManager.default.removeItem(at: folder) }
        let update = try CommandResult.run(["diff", "expected", "actual", "--update"], in: folder)
        #expect(update.status == 1)
        #expect(update.stdout.hasSuffix("updated 3 and removed 0 expected images\n"), "\(update.stdout)")
        #expect(
            update.stderr.hasSuffix("1 deleted image left in expected (--prune removes them)\n"), "\(update.stderr)")
        let again = try CommandResult.run(["diff", "expected", "actual"], in: folder)
        #expect(again.status == 1 && again.stdout.hasSuffix("7 images: 6 unchanged, 0 changed, 1 deleted\n"))
    }

    /// `--junit -` is standard output as `--json -` is: the XML alone there, what is said on standard error; both at
    /// once is refused. A tab in a name survives the XML as a reference.
    @Test func junitGoesToStandardOutput() throws {
        let folder = try Self.folders()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.moveItem(
            at: folder.appendingPathComponent("actual/a.png"), to: folder.appendingPathComponent("actual/t\tb.png"))
        let result = try CommandResult.run(
            ["diff", "expected", "actual", "--junit", "-", "--update", "--prune"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"8\""))
        #expect(result.stdout.hasSuffix("</testsuites>\n") && result.stdout.contains(#"name="t&#9;b.png""#))
        #expect(result.stderr.contains("added expected/t\\u{9}b.png\n"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("-").path))
        let both = try CommandResult.run(["diff", "expected", "actual", "--junit", "-", "--json", "-"], in: folder)
        #expect(both.status == 2)
        #expect(both.stderr.contains("--json and --junit cannot both be - (standard output); give one of them a file"))
    }

    @Test(arguments: [
        (["missing", "actual"], "missing: no such folder (actual is a folder, so the expected images are one too)"),
        (
            ["expected", "missing/"],
            "missing/: no such folder (expected is a folder, so the actual images are one too)"
        ),
        (["expected", "actual", "--prune"], "--prune removes deleted images only with --update"),
        (
            ["expected", "actual", "--report", "actual/report"],
            "--report actual/report is inside the actual folder actual"
        ),
        (
            ["expected", "actual", "--diff-output", "d.png"],
            "--diff-output writes one diff image; for folders, --report DIR holds them all"
        ),
        (["expected", "actual", "--ignore", "1,2,0,4"], "The value '1,2,0,4' is invalid for '--ignore <x,y,w,h>'"),
        (["expected", "actual/a.png"], "expected and actual/a.png must both be images or both be folders"),
    ])
    func badInputExitsTwo(arguments: [String], message: String) throws {
        let folder = try Self.folders()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandResult.run(["diff"] + arguments, in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    /// JPEG and WebP screenshots are compared as PNGs are, and their diff images are PNGs named after them.
    @Test func jpegAndWebPScreenshotsAreCompared() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../DeclutterTestingTests/Fixtures/formats")
        let manager = FileManager.default
        for side in ["expected", "actual"] {
            try manager.createDirectory(at: folder.appendingPathComponent(side), withIntermediateDirectories: true)
            try manager.copyItem(
                at: fixtures.appendingPathComponent("alpha-lossy.webp"),
                to: folder.appendingPathComponent("\(side)/logo.webp"))
        }
        try manager.copyItem(
            at: fixtures.appendingPathComponent("photo.jpg"), to: folder.appendingPathComponent("expected/home.jpg"))
        try manager.copyItem(
            at: fixtures.appendingPathComponent("photo-changed.jpg"),
            to: folder.appendingPathComponent("actual/home.jpg"))
        let result = try CommandResult.run(
            ["diff", "expected", "actual", "--report", "report", "--json", "-"], in: folder)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stdout.contains(
                #"{"path":"home.jpg","status":"changed","expected":[40,24],"actual":[40,24],"mismatched":"#))
        #expect(result.stdout.contains(#""diff":"report/diff/home.jpg.png"}"#), "\(result.stdout)")
        #expect(result.stdout.contains(#"{"path":"logo.webp","status":"unchanged""#))
        let diff = try RGBAImage(contentsOf: folder.appendingPathComponent("report/diff/home.jpg.png"))
        // The blue square drawn into the changed photo is red in the diff.
        #expect(diff[33, 13] == [255, 0, 0, 255])
        let page = try String(contentsOf: folder.appendingPathComponent("report/index.html"), encoding: .utf8)
        #expect(page.contains(#"<img class="diff" src="diff/home.jpg.png" alt="diff">"#))
        #expect(page.contains(#"<img class="actual" src="actual/home.jpg" alt="actual">"#))
        // One pair of files alone is compared too.
        let pair = try CommandResult.run(["diff", "expected/home.jpg", "actual/home.jpg"], in: folder)
        #expect(pair.status == 1 && pair.stdout.contains(" of 40×24 pixels differ ("), "\(pair.stdout)")
    }

    /// A damaged image is a record of its own: the report, JSON and JUnit show it beside the pairs compared all the
    /// same, the run ends with exit 2 naming it, and `--update` accepts nothing, not even the changed images.
    @Test func aDamagedImageIsReportedBesideTheRestAndNothingIsAccepted() throws {
        let folder = try Self.folders()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("not a png".utf8).write(to: folder.appendingPathComponent("actual/sub/b.png"))
        let result = try CommandResult.run(
            [
                "diff", "expected", "actual", "--report", "report", "--json", "result.json", "--junit", "junit.xml",
                "--update",
            ], in: folder)
        #expect(result.status == 2)
        let problem = "cannot read image actual/sub/b.png: not a PNG file (the signature is missing)"
        #expect(result.stderr == "Error: \(problem) (nothing was updated)\n", "\(result.stderr)")
        #expect(result.stdout.contains("unreadable: sub/b.png: \(problem)\n"), "\(result.stdout)")
        #expect(
            result.stdout.hasSuffix(
                "7 images: 2 unchanged, 2 changed, 1 new, 1 deleted, 1 unreadable; report: report/index.html\n"))
        #expect(try Data(contentsOf: folder.appendingPathComponent("expected/a.png")) == Self.png())
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("expected/n.png").path))
        let json = try String(contentsOf: folder.appendingPathComponent("result.json"), encoding: .utf8)
        #expect(json.contains(#""new":1,"deleted":1,"unreadable":1}"#))
        #expect(
            json.contains(
                #"{"path":"sub/b.png","status":"unreadable","expected":[4,4],"actual":null,"mismatched":null,"ratio":null,"ignored":0,"diff":null,"problem":"\#(problem)"}"#
            ), "\(json)")
        let junit = try String(contentsOf: folder.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(junit.contains(#"<testsuites tests="7" failures="4" errors="1">"#), "\(junit)")
        #expect(
            junit.contains(
                #"<error type="unreadable" message="\#(problem)">\#(problem)\#nreport: report/index.html#image-sub/b.png</error>"#
            ))
        let page = try String(contentsOf: folder.appendingPathComponent("report/index.html"), encoding: .utf8)
        #expect(page.contains(#"<body data-images="7" data-unreadable="1" data-changed="2""#))
        #expect(
            page.contains(
                #"<li id="image-sub/b.png" data-path="sub/b.png" data-status="unreadable"><b>sub/b.png</b>: \#(problem)<div><a href="expected/sub/b.png"><img src="expected/sub/b.png" alt="expected sub/b.png"></a></div></li>"#
            ))
        // The pictures of what was compared are there, and of the unreadable pair the side that can be read.
        let report = folder.appendingPathComponent("report")
        #expect(FileManager.default.fileExists(atPath: report.appendingPathComponent("diff/a.png").path))
        #expect(FileManager.default.fileExists(atPath: report.appendingPathComponent("expected/sub/b.png").path))
        #expect(!FileManager.default.fileExists(atPath: report.appendingPathComponent("actual/sub/b.png").path))
    }
}

extension Data {
    /// The PNG with every pixel's alpha set to 0 but where the green channel is below 255: a mask of the painted
    /// pixels.
    func replacingAlpha() throws -> Data {
        var image = try RGBAImage(png: self)
        for offset in stride(from: 0, to: image.pixels.count, by: 4) {
            image.pixels[offset + 3] = image.pixels[offset + 1] < 255 ? 255 : 0
        }
        return try image.pngData()
    }
}
