import DeclutterClustering
import DeclutterMapContent
import DeclutterSupport
import Foundation

/// A temporary file or folder beside an archive's output, registered with ``TemporaryFiles`` so that an interrupt
/// removes it, and renamed onto the output once the archive is complete.
final class TemporaryOutput {
    /// The output as the caller named it, for messages.
    let target: String
    /// The hidden temporary beside it: `.NAME.XXXXXXXX.tmp`.
    let path: String
    /// Whether the temporary has been renamed into place or removed.
    private(set) var isClosed = false

    /// Picks and registers a temporary beside `target`, after checking that its folder exists and is writable.
    ///
    /// - Throws: ``OutputError`` naming the output when its folder is missing, not a folder, or not writable.
    init(for target: String) throws {
        self.target = target
        let url = URL(fileURLWithPath: target)
        try FileSystem.requireWritableFolder(for: target)
        path =
            url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString.prefix(8)).tmp").path
        TemporaryFiles.register(path)
    }

    deinit { discard() }

    /// A hidden name beside `target` to move an old folder to while a new one replaces it.
    static func aside(_ target: String) -> String {
        let url = URL(fileURLWithPath: target)
        return url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).\(UUID().uuidString.prefix(8)).old"
        ).path
    }

    /// Renames the temporary onto the output, replacing a file there.
    func commit() throws {
        let status = TemporaryFiles.moveIntoPlace(path, to: target)
        guard status == 0 else { throw Self.error(target, status, doing: "renaming into place") }
        isClosed = true
    }

    /// Removes the temporary and everything in it; nothing is left beside the output.
    func discard() {
        guard !isClosed else { return }
        isClosed = true
        TemporaryFiles.discard(path)
    }

    /// An ``OutputError`` for a failed system call: a full disk and a read-only place say so in words.
    static func error(_ path: String, _ code: Int32, doing action: String) -> OutputError {
        let reason =
            switch code {
            case ENOSPC: "the disk is full"
            case EDQUOT: "the disk quota is used up"
            case EACCES, EPERM: "permission denied"
            case EROFS: "the file system is read-only"
            default: String(cString: strerror(code))
            }
        return OutputError(path: path, reason: "\(reason) (\(action))")
    }
}
