import DeclutterClustering
import DeclutterSupport
import Foundation

/// The files that go with a tileset archive (its `style.json` and sprite sheet), written beside it to temporaries
/// first and moved into place right after the archive, so that a failure before then leaves none of them and
/// replaces nothing.
final class CompanionFiles {
    private var temporaries: [TemporaryOutput] = []

    /// Writes each file to a temporary beside its target in `folder`.
    ///
    /// - Throws: ``OutputError`` naming the first file that could not be written; no temporary is left.
    init(_ files: [(name: String, data: Data)], in folder: String) throws {
        for file in files {
            let target = URL(fileURLWithPath: folder).appendingPathComponent(file.name).path
            if FileSystem.item(atPath: target) == .folder { throw OutputError(path: target, reason: "is a folder, not a file") }
            let temporary = try TemporaryOutput(for: target)
            temporaries.append(temporary)
            guard FileManager.default.createFile(atPath: temporary.path, contents: file.data) else {
                throw TemporaryOutput.error(target, errno, doing: "writing")
            }
        }
    }

    /// Renames every temporary onto its file.
    func commit() throws {
        for temporary in temporaries { try temporary.commit() }
    }
}
