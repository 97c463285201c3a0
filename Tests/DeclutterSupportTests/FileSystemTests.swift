import Foundation
import Synchronization
import Testing

@testable import DeclutterSupport

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

    /// An input is matched by the file it names, through a link; a name of nothing on disk (a bundled style's name,
    /// a URL) has nothing to lose, so an output may take it.
    @Test func onlyInputsOnDiskCannotBeOverwritten() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let input = root.appendingPathComponent("points.csv"), link = root.appendingPathComponent("link.png")
        try Data("latitude,longitude\n".utf8).write(to: input)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: input)
        #expect(
            throws: OutputError(
                path: link.path, reason: "--output would overwrite the --input file \(input.path); choose another file")
        ) { try FileSystem.refuseOverwriting([("--output", link.path)], inputs: [("--input", input.path)]) }
        let missing = root.appendingPathComponent("default").path
        try FileSystem.refuseOverwriting([("--output", missing)], inputs: [("--style", missing)])
        #expect(
            throws: OutputError(path: missing, reason: "--layout and --output name the same file; choose two files")
        ) { try FileSystem.refuseOverwriting([("--output", missing), ("--layout", missing)], inputs: []) }
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

    /// A rename failing half-way (the third of four, two of them replacing files): the files renamed before it are
    /// put back as they were, the new one removed, and nothing temporary is left; then all four go in together.
    @Test func aRenameFailingHalfWayPutsTheEarlierFilesBack() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let names = ["a.png", "b.png", "c.png", "d.png"]
        try Data("old a".utf8).write(to: root.appendingPathComponent("a.png"))
        try Data("old c".utf8).write(to: root.appendingPathComponent("c.png"))
        let files = names.map { (Data("new \($0)".utf8), root.appendingPathComponent($0)) }
        var calls = 0
        #expect(
            throws: OutputError(
                path: root.appendingPathComponent("c.png").path,
                reason: "Input/output error; the files written before it were put back")
        ) {
            try FileSystem.writeAllAtomically(files) { from, to in
                calls += 1
                guard calls != 3 else {
                    errno = EIO
                    return false
                }
                return rename(from, to) == 0
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == ["a.png", "c.png"])
        #expect(try String(contentsOf: root.appendingPathComponent("a.png"), encoding: .utf8) == "old a")
        #expect(try String(contentsOf: root.appendingPathComponent("c.png"), encoding: .utf8) == "old c")
        try FileSystem.writeAllAtomically(files)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == names)
        #expect(try String(contentsOf: root.appendingPathComponent("c.png"), encoding: .utf8) == "new c.png")
    }

    @Test func aNamedPipeIsWrittenIntoNotReplaced() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let pipe = root.appendingPathComponent("results.xml"), file = root.appendingPathComponent("copy.xml")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        #expect(FileSystem.isStream(pipe.path) && FileSystem.isStream("/dev/stdout") && !FileSystem.isStream(file.path))
        // A reader, as a CI step reading the pipe would be; opening blocks until the writer opens its end.
        let read = Mutex<Data?>(nil), done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let data = FileHandle(forReadingAtPath: pipe.path).flatMap { try? $0.readToEnd() }
            read.withLock { $0 = data ?? Data() }
            done.signal()
        }
        try FileSystem.writeAllAtomically([(Data("<testsuites/>".utf8), pipe), (Data("<testsuites/>".utf8), file)])
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(read.withLock { $0 } == Data("<testsuites/>".utf8))
        var info = stat()
        #expect(lstat(pipe.path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(try Data(contentsOf: file) == Data("<testsuites/>".utf8))
    }
}
