import DeclutterClustering
import DeclutterGeometry
import DeclutterTesting
import Foundation
import Testing

@Suite struct DiffCommandTests {
    let fixtures = packageRoot.appendingPathComponent("Tests/DeclutterTestingTests/Fixtures/pixelmatch").path

    @Test func countsAsPixelmatchAndWritesItsDiff() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandResult.run(
            [
                "diff", "\(fixtures)/1a.png", "\(fixtures)/1b.png", "--threshold", "0.05",
                "--diff-output", "diff.png", "--json", "-",
            ], in: folder)
        #expect(result.status == 1)
        #expect(
            result.stdout
                == "{\"mismatched\":143,\"width\":512,\"height\":256,\"ratio\":0.00109100341796875,\"ignored\":0}\n")
        #expect(
            try RGBAImage(contentsOf: folder.appendingPathComponent("diff.png"))
                == RGBAImage(contentsOf: URL(fileURLWithPath: "\(fixtures)/1diff.png")))
    }

    @Test func optionsReachTheComparison() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandResult.run(
            [
                "diff", "\(fixtures)/2a.png", "\(fixtures)/2b.png", "--threshold", "0.05", "--alpha", "0.5",
                "--aa-color", "0,192,0", "--diff-color", "255,0,255", "--diff-output", "diff.png",
            ], in: folder)
        #expect(result.status == 1)
        #expect(result.stdout == "12437 of 256×256 pixels differ (18.9774 %)\n")
        #expect(
            try RGBAImage(contentsOf: folder.appendingPathComponent("diff.png"))
                == RGBAImage(contentsOf: URL(fileURLWithPath: "\(fixtures)/2diff.png")))
        let mask = try CommandResult.run(
            [
                "diff", "\(fixtures)/1a.png", "\(fixtures)/1b.png", "--threshold", "0.05", "--diff-mask",
                "--diff-output", "mask.png",
            ], in: folder)
        #expect(mask.status == 1)
        #expect(
            try RGBAImage(contentsOf: folder.appendingPathComponent("mask.png"))
                == RGBAImage(contentsOf: URL(fileURLWithPath: "\(fixtures)/1diffmask.png")))
    }

    @Test func tolerancesDecideTheExitCode() throws {
        let pair = ["diff", "\(fixtures)/1a.png", "\(fixtures)/1b.png"]
        #expect(try CommandResult.run(pair, in: packageRoot).status == 1)
        let within = try CommandResult.run(pair + ["--max-pixels", "106"], in: packageRoot)
        #expect(within.status == 0)
        #expect(within.stdout == "106 of 512×256 pixels differ (0.0809 %), within the tolerances\n")
        #expect(try CommandResult.run(pair + ["--max-ratio", "0.001"], in: packageRoot).status == 0)
        #expect(
            try CommandResult.run(["diff", "\(fixtures)/1a.png", "\(fixtures)/1a.png"], in: packageRoot).status == 0)
    }

    @Test func sizesThatDifferAreADifference() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandResult.run(
            ["diff", "\(fixtures)/1a.png", "\(fixtures)/2a.png", "--json", "out.json", "--report", "report"], in: folder
        )
        #expect(result.status == 1)
        #expect(
            result.stdout == "the sizes differ: \(fixtures)/1a.png is 512×256 px, \(fixtures)/2a.png is 256×256 px\n")
        #expect(
            try String(contentsOf: folder.appendingPathComponent("out.json"), encoding: .utf8)
                == "{\"mismatched\":null,\"expected\":[512,256],\"actual\":[256,256],\"ratio\":null}\n")
        // The pair's report shows both pictures under the actual image's name, each with its size, and no diff.
        let page = try String(contentsOf: folder.appendingPathComponent("report/index.html"), encoding: .utf8)
        #expect(page.contains("size changed from 512×256 to 256×256 px"))
        #expect(try RGBAImage(contentsOf: folder.appendingPathComponent("report/expected/2a.png")).width == 512)
        #expect(try RGBAImage(contentsOf: folder.appendingPathComponent("report/actual/2a.png")).width == 256)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("report/diff").path))
    }

    @Test func updateCopiesTheActualImage() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(
            atPath: "\(fixtures)/1a.png", toPath: folder.appendingPathComponent("golden.png").path)
        let result = try CommandResult.run(["diff", "golden.png", "\(fixtures)/1b.png", "--update"], in: folder)
        #expect(result.status == 0)
        #expect(
            result.stdout
                == "106 of 512×256 pixels differ (0.0809 %)\nupdated golden.png\nupdated 1 and removed 0 expected images\n"
        )
        #expect(
            try Data(contentsOf: folder.appendingPathComponent("golden.png"))
                == Data(contentsOf: URL(fileURLWithPath: "\(fixtures)/1b.png")))
    }

    @Test(arguments: [
        (["missing.png", "1a.png"], "missing.png: no such file or not readable"),
        (["LICENSE", "1a.png"], "LICENSE: not a PNG file (the signature is missing)"),
        (["1a.png", "1b.png", "--threshold", "2"], "--threshold must be in 0…1, got 2.0"),
        (["1a.png", "1b.png", "--diff-color", "300,0,0"], "The value '300,0,0' is invalid for '--diff-color <r,g,b>'"),
        (["1a.png", "1b.png", "--diff-output", "diff.jpg"], "--diff-output must name a .png file, got diff.jpg"),
        (
            ["1a.png", "1b.png", "--pixel-limit", "1000"],
            "cannot read image 1a.png: 512×256 px, more than the pixel limit (1000 pixels)"
        ),
    ])
    func badInputExitsTwo(arguments: [String], message: String) throws {
        let result = try CommandResult.run(["diff"] + arguments, in: URL(fileURLWithPath: fixtures))
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
