import DeclutterSupport
import Foundation
import Testing

@Suite struct FileSystemTests {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("declutter-fs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    @Test func aMissingFolderIsSaidToBeMissing() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("nowhere")
        #expect(throws: OutputError(path: folder.path, reason: "the folder does not exist")) {
            try FileSystem.writeAllAtomically([("a.png", Data([1]))], into: folder)
        }
    }

    @Test func aFolderMadeForFilesGoesAgainWhenTheyFail() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("new/deeper")
        // The second file names a folder that does not exist, so it cannot be written after the first was.
        #expect(throws: OutputError.self) {
            try FileSystem.writeAllAtomically(
                [("a.png", Data([1])), ("missing/b.png", Data([2]))], into: folder, creatingFolder: true)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).isEmpty)
        try FileSystem.writeAllAtomically(
            [("a.png", Data([1])), ("b.png", Data([2]))], into: folder, creatingFolder: true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["a.png", "b.png"])
    }
}
