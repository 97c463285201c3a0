import DeclutterRender
import DeclutterTesting
import Foundation
import Testing

/// `declutter-bench diff --pair A.png B.png`: the comparison of a given pair, decoded once, with its figures named.
@Suite struct DiffBenchmarkTests {
    let fixtures = packageRoot.appendingPathComponent("Tests/DeclutterTestingTests/Fixtures/pixelmatch").path
    var built: URL {
        URL(fileURLWithPath: Bundle.main.executablePath ?? CommandLine.arguments[0]).deletingLastPathComponent()
    }

    @Test func measuresTheGivenPair() throws {
        let result = try CommandResult.run(
            ["bench", "diff", "--pair", "\(fixtures)/1a.png", "\(fixtures)/1b.png", "--runs", "1", "--json"], in: built)
        #expect(result.status == 0, "\(result.stderr)")
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(figures["area"] as? String == "diff")
        #expect(figures["pair"] as? [String] == ["\(fixtures)/1a.png", "\(fixtures)/1b.png"])
        // pixelmatch's default threshold on its first fixture pair: 106 pixels, however fast.
        #expect(figures["mismatched"] as? Int == 106)
        #expect(figures["width"] as? Int == 512 && figures["height"] as? Int == 256)
        for key in [
            "decode_ms", "ms", "megapixels_per_s", "count_ms", "count_megapixels_per_s", "reference_ms",
            "reference_megapixels_per_s",
        ] {
            #expect((figures[key] as? Double).map { $0 > 0 } == true, "\(key)")
        }
    }

    @Test(arguments: [
        (["--pair", "a.png"], "--pair takes two PNG files, got 1"),
        (
            ["--pair", "1a.png", "2a.png"],
            "--pair: 1a.png is 512×256 px and 2a.png is 256×256 px; the comparison needs one size"
        ),
        (["--pair", "1a.png", "LICENSE"], "cannot read image LICENSE: not a PNG file (the signature is missing)"),
    ])
    func badPairsExitTwo(arguments: [String], message: String) throws {
        let result = try CommandResult.run(
            ["diff", "--runs", "1"] + arguments, in: URL(fileURLWithPath: fixtures),
            executable: built.appendingPathComponent("declutter-bench"))
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
