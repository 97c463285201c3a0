import DeclutterSupport
import Foundation
import Testing

@Suite struct TemporaryFilesTests {
    /// A registered temporary folder is removed with what it holds; a registered file is renamed into place.
    @Test func discardAndMoveIntoPlace() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "declutter-temporary-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent(".out.tmp/3/4"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data([1, 2]).write(to: folder.appendingPathComponent(".out.tmp/3/4/5.pbf"))
        TemporaryFiles.register(folder.appendingPathComponent(".out.tmp").path)
        TemporaryFiles.discard(folder.appendingPathComponent(".out.tmp").path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])

        let temporary = folder.appendingPathComponent(".a.tmp").path,
            target = folder.appendingPathComponent("a.mbtiles").path
        try Data([7]).write(to: URL(fileURLWithPath: temporary))
        TemporaryFiles.register(temporary)
        #expect(TemporaryFiles.moveIntoPlace(temporary, to: target) == 0)
        #expect(FileManager.default.contents(atPath: target) == Data([7]))
        // Forgotten once in place: discarding the temporary's name now touches nothing.
        TemporaryFiles.discard(temporary)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["a.mbtiles"])
        #expect(TemporaryFiles.moveIntoPlace(temporary, to: target) == ENOENT)
    }
}
