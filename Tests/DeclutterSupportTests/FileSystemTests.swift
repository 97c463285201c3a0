import DeclutterSupport
import Foundation
import Synchronization
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
