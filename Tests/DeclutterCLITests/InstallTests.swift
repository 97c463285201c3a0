import DeclutterClustering
import DeclutterRender
import DeclutterServer
import DeclutterStyle
import Foundation
import Testing

/// A `declutter` copied alone into an empty folder: styles, glyphs, the basemap and the demo's data travel inside it.
@Suite struct InstallTests {
    @Test func aCopiedBinaryWorksAlone() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let built = URL(fileURLWithPath: Bundle.main.executablePath ?? CommandLine.arguments[0])
            .deletingLastPathComponent().appendingPathComponent("declutter")
        let copy = folder.appendingPathComponent("declutter")
        try FileManager.default.copyItem(at: built, to: copy)

        // A process another test starts while the copy is written may inherit the copy's write descriptor for a moment,
        // and Linux refuses to run a file open for writing (ETXTBSY): the first run waits for that to pass.
        var first = try? CommandResult.run(["--version"], in: folder, executable: copy, removing: ["DECLUTTER_STYLES"])
        for _ in 0..<100 where first == nil {
            Thread.sleep(forTimeInterval: 0.05)
            first = try? CommandResult.run(["--version"], in: folder, executable: copy, removing: ["DECLUTTER_STYLES"])
        }
        let version = try #require(first)
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("declutter 0.5.0 (cairo 1."))
        #expect(version.stdout.contains(", pango 1."))

        let demo = try CommandResult.run(
            ["demo", "--scale", "1", "--output-directory", "maps"], in: folder, executable: copy,
            removing: ["DECLUTTER_STYLES"])
        #expect(demo.status == 0, "\(demo.stderr)")
        for name in ["tandm.png", "airports.png"] {
            let bytes = try Data(contentsOf: folder.appendingPathComponent("maps/\(name)"))
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        }

        try Data("name,lat,lon,kind\nA,48.85,2.35,bicycle\nB,48.86,2.36,tricycle\n".utf8)
            .write(to: folder.appendingPathComponent("cycles.csv"))
        let render = try CommandResult.run(
            [
                "render", "--input", "cycles.csv", "--style", "tandm", "--category", "kind",
                "--output", "cycles.png",
            ], in: folder, executable: copy, removing: ["DECLUTTER_STYLES"])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("cycles.png").path))
        let contents = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(contents == ["cycles.csv", "cycles.png", "declutter", "maps"])
    }
}
