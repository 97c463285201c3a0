import DeclutterClustering
import DeclutterCommandLine
import DeclutterMap
import DeclutterMapContent
import DeclutterPlacement
import DeclutterRender
import DeclutterTiles
import Foundation
import Testing

/// The benchmarks live in `declutter-bench`; `declutter bench …` runs it from beside `declutter`.
@Suite struct BenchCommandTests {
    /// The folder of the built executables.
    var built: URL {
        URL(fileURLWithPath: Bundle.main.executablePath ?? CommandLine.arguments[0]).deletingLastPathComponent()
    }

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

    @Test func tilesTimesTheWholeJobInProcess() throws {
        let result = try CommandResult.run(
            ["bench", "tiles", "--points", "2000", "--max-zoom", "5", "--runs", "2", "--json"], in: built)
        #expect(result.status == 0, "\(result.stderr)")
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(figures["area"] as? String == "tiles")
        #expect(figures["source"] as? String == "uniform")
        #expect(figures["placement"] as? String == "placed")
        #expect(figures["points"] as? Int == 2000)
        #expect(figures["max_zoom"] as? Int == 5)
        #expect(figures["runs"] as? Int == 2)
        // 2,000 points spread over the world fill every tile of zooms 0…5 that holds a latitude within ±85°.
        let tiles = try #require(figures["tiles"] as? Int)
        #expect((1...1365).contains(tiles), "\(tiles) tiles")
        for name in ["total_ms", "index_ms", "encode_write_ms", "sprites_ms", "tiles_per_s", "peak_mb"] {
            #expect((figures[name] as? Double).map { $0 > 0 } == true, "\(name): \(figures[name] ?? "missing")")
        }
        for name in ["total_ms", "index_ms", "encode_write_ms"] {
            let low = try #require(figures[name + "_min"] as? Double), middle = try #require(figures[name] as? Double)
            let high = try #require(figures[name + "_max"] as? Double)
            #expect(low <= middle && middle <= high, "\(name): \(low) \(middle) \(high)")
        }
        // The parts are timed inside the whole.
        let parts = try ["sprites_ms", "index_ms", "encode_write_ms"].map {
            try #require(figures[$0 + "_min"] as? Double)
        }.reduce(0, +)
        #expect(parts <= (figures["total_ms_max"] as? Double ?? 0))
        let mvt = try #require(figures["mvt_bytes"] as? Int), file = try #require(figures["file_bytes"] as? Int)
        #expect(mvt > tiles && file > 0)
        #expect(figures["tippecanoe"] == nil && figures["process"] == nil)
        let text = try CommandResult.run(
            ["bench", "tiles", "--points", "500", "--max-zoom", "3", "--runs", "1", "--placement", "supercluster"],
            in: built)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.hasPrefix("tiles: 500 points (uniform), zooms 0–3, supercluster, 1 run"), "\(text.stdout)")
        let wrong = try CommandResult.run(["bench", "tiles", "--points", "500", "--placement", "tidy"], in: built)
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("--placement must be placed or supercluster, got tidy"), "\(wrong.stderr)")
    }

    @Test func tilesAlternatesWithTippecanoeAsWholeProcesses() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("places.csv")
        try "name,lat,lon,kind\nA,48.85,2.35,museum\nB,48.86,2.34,\"park, public\"\nC,40.7,-74.0,museum\n".write(
            to: input, atomically: true, encoding: .utf8)
        // A stand-in for tippecanoe that keeps its arguments and the CSV's header, and writes its -o file.
        let fake = folder.appendingPathComponent("tippecanoe")
        try """
        #!/bin/sh
        echo "$@" > "\(folder.path)/arguments"
        for last in "$@"; do :; done
        head -n 3 "$last" > "\(folder.path)/head.csv"
        while [ $# -gt 0 ]; do if [ "$1" = -o ]; then printf 12345 > "$2"; fi; shift; done
        """.write(to: fake, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        let temporary = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let result = try CommandResult.run(
            [
                "bench", "tiles", "--input", input.path, "--category", "kind", "--max-zoom", "4", "--runs", "2",
                "--tippecanoe", fake.path, "--json",
            ], in: folder, environment: ["TMPDIR": temporary.path])
        #expect(result.status == 0, "\(result.stderr)")
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(figures["source"] as? String == "places.csv")
        #expect(figures["points"] as? Int == 3)
        let process = try #require(figures["process"] as? [String: Any]),
            tippecanoe = try #require(figures["tippecanoe"] as? [String: Any])
        // Our whole process writes the archive the job writes in process.
        #expect(process["file_bytes"] as? Int == figures["file_bytes"] as? Int)
        #expect(tippecanoe["file_bytes"] as? Int == 5)
        for figures in [process, tippecanoe] {
            #expect((figures["ms_min"] as? Double).map { $0 > 0 } == true)
            // The peak of a whole process comes from GNU time, when there is one.
            if FileManager.default.isExecutableFile(atPath: "/usr/bin/time") {
                #expect((figures["peak_mb"] as? Double).map { $0 > 0 } == true)
            } else {
                #expect(figures["peak_mb"] is NSNull)
            }
        }
        let ratio = try #require(figures["ratio"] as? [String: Any])
        #expect((ratio["process_min"] as? Double ?? .nan) <= (ratio["process_max"] as? Double ?? .nan))
        let arguments = try String(contentsOf: folder.appendingPathComponent("arguments"), encoding: .utf8)
        #expect(arguments.hasPrefix("-q -f -o "), "\(arguments)")
        #expect(arguments.contains("/out.mbtiles -l points -Z0 -z4 -r1 --cluster-distance=40 "), "\(arguments)")
        #expect(arguments.hasSuffix("/points.csv\n"), "\(arguments)")
        // The same points for both programs: positions and the category under its own name, quoted where CSV needs it.
        let head = try String(contentsOf: folder.appendingPathComponent("head.csv"), encoding: .utf8)
        #expect(head == "lat,lon,kind\n48.85,2.35,museum\n48.86,2.34,\"park, public\"\n")
        // The CSV and every run's files were written in the temporary folder and are gone.
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
        // Seeded points too: the whole process reads the CSV written of them and writes the same archive.
        let uniform = try CommandResult.run(
            [
                "bench", "tiles", "--points", "300", "--max-zoom", "3", "--runs", "1", "--tippecanoe", fake.path,
                "--json",
            ], in: folder, environment: ["TMPDIR": temporary.path])
        #expect(uniform.status == 0, "\(uniform.stderr)")
        let seeded = try #require(try JSONSerialization.jsonObject(with: Data(uniform.stdout.utf8)) as? [String: Any])
        #expect((seeded["process"] as? [String: Any])?["file_bytes"] as? Int == seeded["file_bytes"] as? Int)
        #expect(
            try String(contentsOf: folder.appendingPathComponent("head.csv"), encoding: .utf8).hasPrefix("lat,lon\n"))
    }

    @Test func renderDrawsTheWorldMapWhereTold() throws {
        let result = try CommandResult.run(
            [
                "bench", "render", "--basemap", "world", "--center", "44.8,20.5", "--pitch", "60", "--runs", "1",
                "--json",
            ],
            in: built)
        #expect(result.status == 0, "\(result.stderr)")
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(figures["basemap"] as? String == "world")
        #expect(figures["center"] as? [Double] == [20.5, 44.8])
        // The markers are seeded on the screen, so the flat map shows the same views wherever it stands.
        #expect(figures["views_shown"] as? Int == 105)
        #expect(figures["pitch"] as? Double == 60)
        #expect((figures["pitched_over_flat"] as? Double).map { $0 > 0 } == true)
        let wrong = try CommandResult.run(["bench", "render", "--basemap", "world", "--center", "89,20.5"], in: built)
        #expect(wrong.status == 2)
        #expect(
            wrong.stderr.contains("--center's latitude must be in -85.05…85.05 (Web Mercator), got 89,20.5"),
            "\(wrong.stderr)")
    }

    @Test func tilesRefusesACategoryWithoutInput() throws {
        let result = try CommandResult.run(["bench", "tiles", "--points", "100", "--category", "kind"], in: built)
        #expect(result.status == 2)
        #expect(result.stderr.contains("--category names a column of --input"), "\(result.stderr)")
    }

    @Test func theShippedBinaryCarriesNoBenchmarkCode() throws {
        let declutter = try Data(contentsOf: built.appendingPathComponent("declutter"))
        let bench = try Data(contentsOf: built.appendingPathComponent("declutter-bench"))
        // Type names stay in Swift's metadata, so a benchmark type linked in would show.
        for name in [
            "RenderBenchmark", "ClusterBenchmark", "MarkerBenchmark", "TilesBenchmark", "ServeBenchmark", "WrkReport",
            "SeededRandom",
        ] {
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
        #expect(
            result.stderr
                == "Error: the benchmarks are a program of their own, declutter-bench, which is not beside this declutter "
                + "(\(folder.resolvingSymlinksInPath().path)/declutter-bench); build it with `swift build -c release --product declutter-bench` "
                + "and run `.build/release/declutter-bench cluster --points 1000`\n")
    }
}
