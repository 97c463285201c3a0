import Foundation
import Testing

/// A command's outputs appear all together or not at all, and never replace one of its inputs.
@Suite struct OutputSafetyTests {
    func folderWithExamples() throws -> URL {
        let folder = try scratchFolder()
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("Examples/stops.geojson"),
                                         to: folder.appendingPathComponent("pts.json"))
        return folder
    }

    @Test func aLayoutIsNotLeftBehindWhenTheImageCannotBeWritten() throws {
        let folder = try folderWithExamples()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandResult.run(["render", "--input", "pts.json", "--layout", "l.json", "--output", "nope/r.png"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr == "Error: cannot write nope/r.png: the folder nope does not exist\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["pts.json"])
    }

    @Test func anOutputThatIsAnInputIsRefusedBeforeAnythingIsRead() throws {
        let folder = try folderWithExamples()
        defer { try? FileManager.default.removeItem(at: folder) }
        let points = try Data(contentsOf: folder.appendingPathComponent("pts.json"))
        let result = try CommandResult.run(["render", "--input", "pts.json", "--layout", "./pts.json", "--output", "r.png"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr == "Error: cannot write ./pts.json: --layout would overwrite the --input file pts.json; choose another file\n")
        #expect(try Data(contentsOf: folder.appendingPathComponent("pts.json")) == points)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["pts.json"])

        // Through a symbolic link too.
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.png").path, withDestinationPath: "pts.json")
        let linked = try CommandResult.run(["render", "--input", "pts.json", "--output", "link.png"], in: folder)
        #expect(linked.status == 2)
        #expect(linked.stderr == "Error: cannot write link.png: --output would overwrite the --input file pts.json; choose another file\n")
        #expect(try Data(contentsOf: folder.appendingPathComponent("pts.json")) == points)
    }

    @Test func aDiffImageNeverReplacesAnImageCompared() throws {
        let folder = try folderWithExamples()
        defer { try? FileManager.default.removeItem(at: folder) }
        let rendered = try CommandResult.run(["render", "--input", "pts.json", "--size", "160x120", "--output", "a.png"], in: folder)
        try #require(rendered.status == 0, "\(rendered.stderr)")
        try FileManager.default.copyItem(at: folder.appendingPathComponent("a.png"), to: folder.appendingPathComponent("b.png"))
        let image = try Data(contentsOf: folder.appendingPathComponent("b.png"))
        let result = try CommandResult.run(["diff", "a.png", "b.png", "--diff-output", "\(folder.path)/b.png"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr == "Error: cannot write \(folder.path)/b.png: --diff-output would overwrite the second image file b.png; choose another file\n")
        #expect(try Data(contentsOf: folder.appendingPathComponent("b.png")) == image)
    }
}
