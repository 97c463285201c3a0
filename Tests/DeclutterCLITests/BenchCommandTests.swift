import Foundation
import Testing

/// The benchmarks live in `declutter-bench`; `declutter bench …` runs it from beside `declutter`.
@Suite struct BenchCommandTests {
    /// The folder of the built executables.
    var built: URL { URL(fileURLWithPath: Bundle.main.executablePath ?? CommandLine.arguments[0]).deletingLastPathComponent() }

    @Test func declutterBenchRunsTheBenchmarkProgram() throws {
        let result = try CommandResult.run(["bench", "placement", "--annotations", "1000", "--json"], in: built)
        #expect(result.status == 0, "\(result.stderr)")
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(figures["area"] as? String == "placement")
        #expect(figures["annotations"] as? Int == 1000)
        // The seeded scene of 1,000 views leaves 858 shown, however fast it runs.
        #expect(figures["visible"] as? Int == 858)
        #expect((figures["ms"] as? Double).map { $0 > 0 } == true)
        // Options it does not know are declutter-bench's to refuse.
        let wrong = try CommandResult.run(["bench", "placement", "--annotation", "10"], in: built)
        #expect(wrong.status == 2)
        #expect(wrong.stderr.hasPrefix("Error: Unknown option '--annotation'"), "\(wrong.stderr)")
    }

    @Test func placementTimesTheCrowdedScene() throws {
        let result = try CommandResult.run(["bench", "placement", "--crowded", "2000", "--json"], in: built)
        #expect(result.status == 0, "\(result.stderr)")
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(figures["scene"] as? String == "crowded")
        #expect(figures["annotations"] as? Int == 2000)
        // 2,000 views of one identifier in a 300×300 square end as 32 clusters, all shown.
        #expect(figures["visible"] as? Int == 32)
        let wrong = try CommandResult.run(["bench", "placement", "--crowded", "1000001"], in: built)
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("--crowded must be in 1…1000000"), "\(wrong.stderr)")
    }

    @Test func theShippedBinaryCarriesNoBenchmarkCode() throws {
        let declutter = try Data(contentsOf: built.appendingPathComponent("declutter"))
        let bench = try Data(contentsOf: built.appendingPathComponent("declutter-bench"))
        // Type names stay in Swift's metadata, so a benchmark type linked in would show.
        for name in ["RenderBenchmark", "ClusterBenchmark", "MarkerBenchmark", "SeededRandom"] {
            #expect(bench.range(of: Data(name.utf8)) != nil, "\(name) in declutter-bench")
            #expect(declutter.range(of: Data(name.utf8)) == nil, "\(name) in declutter")
        }
    }

    @Test func withoutTheBenchmarkProgramTheUserIsToldHowToBuildIt() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("declutter")
        try FileManager.default.copyItem(at: built.appendingPathComponent("declutter"), to: copy)
        let result = try CommandResult.run(["bench", "cluster", "--points", "1000"], in: folder, executable: copy)
        #expect(result.status == 2)
        #expect(result.stderr == "Error: the benchmarks are a program of their own, declutter-bench, which is not beside this declutter "
            + "(\(folder.resolvingSymlinksInPath().path)/declutter-bench); build it with `swift build -c release --product declutter-bench` "
            + "and run `.build/release/declutter-bench cluster --points 1000`\n")
    }
}
