import DeclutterClustering
import DeclutterCommandLine
import DeclutterGeometry
import DeclutterMap
import DeclutterRender
import DeclutterServer
import DeclutterStaticAPI
import DeclutterStyle
import DeclutterTesting
import Foundation
import Testing

/// A command's outputs appear all together or not at all, and never replace one of its inputs.
@Suite struct OutputSafetyTests {
    func folderWithExamples() throws -> URL {
        let folder = try scratchFolder()
        try FileManager.default.copyItem(
            at: packageRoot.appendingPathComponent("Examples/stops.geojson"),
            to: folder.appendingPathComponent("pts.json"))
        return folder
    }

    @Test func aLayoutIsNotLeftBehindWhenTheImageCannotBeWritten() throws {
        let folder = try folderWithExamples()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandResult.run(
            ["render", "--input", "pts.json", "--layout", "l.json", "--output", "nope/r.png"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr == "Error: cannot write nope/r.png: the folder nope does not exist\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["pts.json"])
    }

    @Test func anOutputThatIsAnInputIsRefusedBeforeAnythingIsRead() throws {
        let folder = try folderWithExamples()
        defer { try? FileManager.default.removeItem(at: folder) }
        let points = try Data(contentsOf: folder.appendingPathComponent("pts.json"))
        let result = try CommandResult.run(
            ["render", "--input", "pts.json", "--layout", "./pts.json", "--output", "r.png"], in: folder)
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "Error: cannot write ./pts.json: --layout would overwrite the --input file pts.json; choose another file\n"
        )
        #expect(try Data(contentsOf: folder.appendingPathComponent("pts.json")) == points)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["pts.json"])

        // Through a symbolic link too.
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("link.png").path, withDestinationPath: "pts.json")
        let linked = try CommandResult.run(["render", "--input", "pts.json", "--output", "link.png"], in: folder)
        #expect(linked.status == 2)
        #expect(
            linked.stderr
                == "Error: cannot write link.png: --output would overwrite the --input file pts.json; choose another file\n"
        )
        #expect(try Data(contentsOf: folder.appendingPathComponent("pts.json")) == points)
    }

    /// Every file a command reads is an input: an overlay, a style file, a base style, as well as the points.
    @Test(arguments: [
        (
            ["render", "--input", "pts.json", "--overlay", "zones.geojson", "--output", "map.svg"], "zones.geojson",
            "map.svg", "--output would overwrite the --overlay file zones.geojson"
        ),
        (
            ["marker", "--style", "mine.json", "--counts", "bicycle=3", "--output", "s.png"], "mine.json", "s.png",
            "--output would overwrite the --style file mine.json"
        ),
        (
            ["sprites", "--style", "out/sprite.json", "--output", "out"], "out/sprite.json", "out/sprite.json",
            "--output's sprite.json would overwrite the --style file out/sprite.json"
        ),
        (
            [
                "tiles", "--input", "pts.json", "--no-basemap", "--max-zoom", "1", "--base-style", "t-style.json",
                "--output", "t.pmtiles",
            ], "t-style.json", "t-style.json",
            "--output's t-style.json would overwrite the --base-style file t-style.json"
        ),
    ])
    func everyFileReadIsAnInput(arguments: [String], input: String, output: String, message: String) throws {
        let folder = try folderWithExamples()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("out"), withIntermediateDirectories: true)
        // The input's own content: a style for marker and sprites, a MapLibre style, an overlay.
        let content =
            input.hasSuffix("geojson")
            ? try Data(contentsOf: packageRoot.appendingPathComponent("Examples/route.geojson"))
            : input == "t-style.json"
                ? Data(#"{"version":8,"sources":{},"layers":[{"id":"bg","type":"background"}]}"#.utf8)
                : try Data(contentsOf: packageRoot.appendingPathComponent("Styles/tandm.json"))
        try content.write(to: folder.appendingPathComponent(input))
        if input.hasSuffix(".json"), !input.hasPrefix("t-") {
            // The TANDm style's glyph images, beside the copy that names them.
            let glyphs = packageRoot.appendingPathComponent("Styles/tandm")
            try FileManager.default.copyItem(
                at: glyphs,
                to: folder.appendingPathComponent(input).deletingLastPathComponent().appendingPathComponent("tandm"))
        }
        if output != input {
            try FileManager.default.createSymbolicLink(
                atPath: folder.appendingPathComponent(output).path, withDestinationPath: input)
        }
        let result = try CommandResult.run(arguments, in: folder)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(message + "; choose another file\n"), "\(result.stderr)")
        #expect(try Data(contentsOf: folder.appendingPathComponent(input)) == content)
    }

    @Test func aDiffImageNeverReplacesAnImageCompared() throws {
        let folder = try folderWithExamples()
        defer { try? FileManager.default.removeItem(at: folder) }
        let rendered = try CommandResult.run(
            ["render", "--input", "pts.json", "--size", "160x120", "--output", "a.png"], in: folder)
        try #require(rendered.status == 0, "\(rendered.stderr)")
        try FileManager.default.copyItem(
            at: folder.appendingPathComponent("a.png"), to: folder.appendingPathComponent("b.png"))
        let image = try Data(contentsOf: folder.appendingPathComponent("b.png"))
        let result = try CommandResult.run(
            ["diff", "a.png", "b.png", "--diff-output", "\(folder.path)/b.png"], in: folder)
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "Error: cannot write \(folder.path)/b.png: --diff-output would overwrite the second image file b.png; choose another file\n"
        )
        #expect(try Data(contentsOf: folder.appendingPathComponent("b.png")) == image)
    }

    @Test func spritesChangeNothingWhenOneOutputIsAFolder() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(
            at: out.appendingPathComponent("sprite@2x.png"), withIntermediateDirectories: true)
        try Data("old".utf8).write(to: out.appendingPathComponent("sprite.json"))
        let result = try CommandResult.run(
            ["sprites", "--style", "tandm", "--output", "out", "--ratios", "1,2"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr == "Error: cannot write out/sprite@2x.png: is a folder, not a file\n")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["sprite.json", "sprite@2x.png"])
        #expect(try Data(contentsOf: out.appendingPathComponent("sprite.json")) == Data("old".utf8))
    }

    /// A write the system refuses (here a file size limit, as a full disk would) names its reason, not "the folder
    /// is not writable", and leaves nothing behind.
    @Test func aRefusedWriteSaysWhy() throws {
        let folder = try folderWithExamples()
        defer { try? FileManager.default.removeItem(at: folder) }
        let command =
            "ulimit -f 1; trap '' XFSZ; exec '\(declutterExecutable.path)' render --input pts.json --size 300x200 --output big.png"
        let result = try CommandResult.run(["-c", command], in: folder, executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(result.status == 2)
        #expect(result.stderr == "Error: cannot write big.png: writing failed (File too large)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["pts.json"])
    }

    /// SIGTERM sent while the temporaries are written but not yet renamed (the test hook holds the write there for
    /// a second): the write finishes first, and the process ends, by the signal or just after, leaving every output
    /// and no temporary. Started with no signal blocked, as from a shell (a test runner's threads block them).
    @Test func anInterruptDuringTheWriteLeavesNoTemporary() throws {
        let folder = try folderWithExamples()
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = [
            "render", "--input", "\(folder.path)/pts.json", "--size", "160x120",
            "--output", "\(folder.path)/r.png", "--layout", "\(folder.path)/l.json",
        ]
        let (pid, stderr) = try spawnUnblocked(arguments, environment: ["DECLUTTER_TEST_HOLD_WRITE": "1"])
        let reader = FileHandle(fileDescriptor: stderr, closeOnDealloc: true)
        var said = Data()
        while !String(decoding: said, as: UTF8.self).contains("holding\n") {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            said += chunk
        }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        #expect(String(decoding: said, as: UTF8.self).hasSuffix("holding\n"))
        let signal = status & 0x7F, exitCode = (status >> 8) & 0xFF
        #expect(signal == SIGTERM || (signal == 0 && exitCode == 0), "status \(status)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
                "l.json", "pts.json", "r.png",
            ])
    }

    /// SIGINT while `declutter tiles` encodes into a PMTiles archive and into a folder: the process ends by the
    /// signal, and neither the archive's temporary nor the folder's, nor any sprite sheet or style, is left.
    @Test(arguments: ["clusters.pmtiles", "clusters"])
    func anInterruptWhileTilingLeavesNothing(output: String) throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Enough points for the debug build to spend seconds on zooms 0–16.
        var csv = "lat,lon,kind\n"
        for index in 0..<40_000 {
            csv += "\(Double(index % 200) / 400 + 48.6),\(Double(index / 200) / 300 + 2.1),k\(index % 3)\n"
        }
        try Data(csv.utf8).write(to: folder.appendingPathComponent("points.csv"))
        let (pid, stderr) = try spawnUnblocked([
            "tiles", "--input", "\(folder.path)/points.csv", "--category", "kind",
            "--max-zoom", "16", "--output", "\(folder.path)/\(output)", "--no-basemap",
        ])
        defer { close(stderr) }
        // The temporary appears when the writer starts, after every zoom is placed and before the first tile: under a
        // load of 7 on 2 cores the debug build took more than 30 s to get there.
        var started = false
        for _ in 0..<12_000 where !started {
            started = (try FileManager.default.contentsOfDirectory(atPath: folder.path)).contains {
                $0.hasPrefix(".\(output).")
            }
            if !started { usleep(10_000) }
        }
        #expect(started, "no temporary appeared within 120 s")
        kill(pid, SIGINT)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        #expect(status & 0x7F == SIGINT, "status \(status): the run ended before the interrupt came")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(
            left == ["points.csv"],
            "left: \(left.map { [$0] + ((try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent($0).path)) ?? []) })"
        )
    }
}

/// Starts `declutter` with `arguments` and no signal blocked, as from a shell (a test runner's threads block them);
/// returns its process id and the reading end of its standard error.
private func spawnUnblocked(_ arguments: [String], environment extra: [String: String] = [:]) throws -> (pid_t, Int32) {
    var errors: [Int32] = [0, 0]
    try #require(pipe(&errors) == 0)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
    posix_spawn_file_actions_addclose(&actions, errors[0])
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
    let argv = [declutterExecutable.path] + arguments
    let environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }.map { "\($0)=\($1)" }
    var pid: pid_t = 0
    let spawned = withCStrings(argv) { argv in
        withCStrings(environment) { envp in
            posix_spawn(&pid, declutterExecutable.path, &actions, &attributes, argv, envp)
        }
    }
    close(errors[1])
    try #require(spawned == 0)
    return (pid, errors[0])
}

/// Runs `body` with `strings` as a NULL-terminated C array, as exec and spawn take them.
private func withCStrings<Result>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> Result) -> Result {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return body(pointers)
}
