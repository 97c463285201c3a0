import Foundation

/// A fresh folder under the system's temporary folder, removed when the test's value goes away.
final class TestFolder {
    let url: URL
    var path: String { url.path }

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "declutter-tiles-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The path of `name` inside the folder.
    func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// The names in the folder, hidden ones included, sorted.
    func contents() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: path).sorted() }
}
