import DeclutterSupport
import Foundation

/// The files that go with a tileset archive (its `style.json`, sprite sheet and glyph ranges), written beside it to
/// temporaries first and moved into place right after the archive, so that a failure before then leaves none of them
/// and replaces nothing. A name with a folder (`NAME-glyphs/Font/0-255.pbf`) goes into a temporary folder that
/// replaces the folder of that name whole.
final class CompanionFiles {
    private var temporaries: [TemporaryOutput] = []

    /// Writes each file to a temporary beside its target in `folder`, the files of one subfolder into one temporary
    /// folder.
    ///
    /// - Throws: ``OutputError`` naming the first file that could not be written; no temporary is left.
    init(_ files: [(name: String, data: Data)], in folder: String) throws {
        var subfolders: [String: TemporaryOutput] = [:]
        for file in files {
            let parts = file.name.split(separator: "/", maxSplits: 1).map(String.init)
            let target = URL(fileURLWithPath: folder).appendingPathComponent(parts[0]).path
            let path: String
            if parts.count == 2 {
                let temporary =
                    try subfolders[parts[0]]
                    ?? {
                        if FileSystem.item(atPath: target) == .file {
                            throw OutputError(path: target, reason: "is a file, not a folder")
                        }
                        let made = try TemporaryOutput(for: target)
                        temporaries.append(made)
                        subfolders[parts[0]] = made
                        return made
                    }()
                path = URL(fileURLWithPath: temporary.path).appendingPathComponent(parts[1]).path
                do {
                    try FileManager.default.createDirectory(
                        at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
                } catch {
                    throw OutputError(path: target, reason: "cannot make its folder (\(FileSystem.reason(error)))")
                }
            } else {
                if FileSystem.item(atPath: target) == .folder {
                    throw OutputError(path: target, reason: "is a folder, not a file")
                }
                let temporary = try TemporaryOutput(for: target)
                temporaries.append(temporary)
                path = temporary.path
            }
            guard FileManager.default.createFile(atPath: path, contents: file.data) else {
                throw TemporaryOutput.error(target, errno, doing: "writing")
            }
        }
    }

    /// Renames every temporary onto its file or folder; a folder there already is replaced whole.
    func commit() throws {
        for temporary in temporaries {
            if FileSystem.item(atPath: temporary.target) == .folder {
                // rename(2) does not replace a folder that holds files: the old one is moved aside, then removed.
                let aside = TemporaryOutput.aside(temporary.target)
                guard rename(temporary.target, aside) == 0 else {
                    throw TemporaryOutput.error(temporary.target, errno, doing: "replacing the folder")
                }
                try temporary.commit()
                try? FileManager.default.removeItem(atPath: aside)
            } else {
                try temporary.commit()
            }
        }
    }
}
