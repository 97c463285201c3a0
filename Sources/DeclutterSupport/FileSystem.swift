import Foundation

/// File helpers shared by every command that writes output.
public enum FileSystem {
    /// Writes `data` to `url` atomically: a temporary file in the same folder, then a rename,
    /// so a failed write never leaves a half-written file behind. A symbolic link is followed: the file
    /// it points to is replaced, and the link stays.
    ///
    /// - Throws: ``OutputError`` naming the file and the reason.
    public static func writeAtomically(_ data: Data, to url: URL) throws {
        try writeAllAtomically([(data, url)])
    }

    /// Writes several files into one folder so that either all of them appear or none: each goes to a temporary
    /// file first, and only when all are written are they renamed into place.
    ///
    /// With `creatingFolder`, a missing folder (and its missing parents) is made first, and removed again if the
    /// files cannot all be written, so that a failure leaves nothing behind.
    public static func writeAllAtomically(
        _ files: [(name: String, data: Data)], into folder: URL, creatingFolder: Bool = false
    ) throws {
        var created: URL?
        switch item(atPath: folder.path) {
        case .folder: break
        case .file: throw OutputError(path: folder.relativePath, reason: "is a file, not a folder")
        case nil:
            guard creatingFolder else {
                throw OutputError(path: folder.relativePath, reason: "the folder does not exist")
            }
            // `top` is the first folder to make; `shown` the same path as it was given, for the message.
            var top = folder.standardizedFileURL, shown = folder.relativePath as NSString
            while item(atPath: top.deletingLastPathComponent().path) == nil {
                top.deleteLastPathComponent()
                shown = shown.deletingLastPathComponent as NSString
            }
            if item(atPath: top.deletingLastPathComponent().path) == .file {
                let parent = shown.deletingLastPathComponent
                throw OutputError(
                    path: folder.relativePath,
                    reason: "\(parent.isEmpty ? top.deletingLastPathComponent().path : parent) is not a folder")
            }
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw OutputError(path: folder.relativePath, reason: "cannot create the folder (\(reason(error)))")
            }
            created = top
        }
        do {
            try writeAllAtomically(files.map { ($0.data, folder.appendingPathComponent($0.name)) })
        } catch {
            if let created { try? FileManager.default.removeItem(at: created) }
            throw error
        }
    }

    /// Writes several files, in any folders, so that either all of them appear or none: each goes to a temporary
    /// file beside its target first, and only when all are written are they renamed into place. An interrupt
    /// (SIGINT, SIGTERM) waits for the write to end and leaves no temporary behind (``TemporaryFiles``).
    ///
    /// Every target is checked before the first rename, and each file replaced keeps a second name until all are
    /// renamed: a target that cannot be replaced (an immutable file) is said before anything changes, and a rename
    /// failing half-way (a race) puts the files renamed before it back.
    ///
    /// A target that is a stream rather than a file (``isStream(_:)``: `/dev/stdout`, a named pipe, a terminal) is
    /// written into, after the renames: renaming a file over it would put a file where the stream was.
    ///
    /// - Throws: ``OutputError`` naming the first file that could not be written; no target is then changed.
    public static func writeAllAtomically(_ files: [(data: Data, url: URL)]) throws {
        try writeAllAtomically(files, renaming: { rename($0, $1) == 0 })
    }

    /// ``writeAllAtomically(_:)`` with the rename of a temporary onto its target given (`false` with `errno` set on
    /// failure), so that a test can fail one half-way.
    static func writeAllAtomically(_ files: [(data: Data, url: URL)], renaming: (String, String) -> Bool) throws {
        var streams: [(data: Data, url: URL)] = [], regular: [(data: Data, url: URL)] = []
        for file in files {
            if isStream(file.url.path) { streams.append(file) } else { regular.append(file) }
        }
        try TemporaryFiles.whileWriting { registered in
            var temporaries: [(temporary: URL, target: URL)] = []
            do {
                for (data, url) in regular {
                    let isLink = (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) != nil
                    let target = isLink ? url.resolvingSymlinksInPath() : url
                    if item(atPath: target.path) == .folder {
                        throw OutputError(path: url.relativePath, reason: "is a folder, not a file")
                    }
                    guard !url.hasDirectoryPath else {
                        throw OutputError(
                            path: url.relativePath, reason: "the path ends in /, which names a folder, not a file")
                    }
                    let folder = target.deletingLastPathComponent()
                    let temporary = folder.appendingPathComponent(
                        ".\(target.lastPathComponent).\(UUID().uuidString.prefix(8)).tmp")
                    registered.insert(temporary.path)
                    temporaries.append((temporary, target))
                    guard FileManager.default.createFile(atPath: temporary.path, contents: data) else {
                        let reason =
                            switch item(atPath: folder.path) {
                            case .folder:
                                access(folder.path, W_OK) == 0
                                    ? writeFailure(data.count, in: folder) : "the folder is not writable"
                            case .file: "\(folder.relativePath) is not a folder"
                            case nil: "the folder \(folder.relativePath) does not exist"
                            }
                        throw OutputError(path: url.relativePath, reason: reason)
                    }
                }
                // Each file that is replaced keeps a second name (a hard link, no copy) until every rename is done,
                // so that a rename failing half-way (a file made immutable, a race) puts the earlier ones back.
                var backups: [URL?] = [], existed: [Bool] = []
                for (_, target) in temporaries {
                    existed.append(item(atPath: target.path) == .file)
                    guard existed.last == true else {
                        backups.append(nil)
                        continue
                    }
                    let backup = target.deletingLastPathComponent().appendingPathComponent(
                        ".\(target.lastPathComponent).\(UUID().uuidString.prefix(8)).old")
                    if link(target.path, backup.path) == 0 {
                        registered.insert(backup.path)
                        backups.append(backup)
                    } else if errno == EPERM || errno == EACCES {
                        // A file that cannot be linked (immutable, append-only) cannot be replaced either: said now,
                        // before anything changed.
                        let reason = String(cString: strerror(errno))
                        for case let backup? in backups where registered.remove(backup.path) != nil {
                            unlink(backup.path)
                        }
                        throw OutputError(path: target.relativePath, reason: "cannot be replaced (\(reason))")
                    } else {
                        // A file system without hard links: replaced without a way back, as before.
                        backups.append(nil)
                    }
                }
                TemporaryFiles.pauseBeforeRenamesIfTesting()
                for (index, (temporary, target)) in temporaries.enumerated() {
                    guard renaming(temporary.path, target.path) else {
                        let reason = String(cString: strerror(errno))
                        for (done, (_, earlier)) in temporaries.prefix(index).enumerated() {
                            if let backup = backups[done] {
                                rename(backup.path, earlier.path)
                                registered.remove(backup.path)
                            } else if !existed[done] {
                                unlink(earlier.path)
                            }
                        }
                        for case let backup? in backups.dropFirst(index) where registered.remove(backup.path) != nil {
                            unlink(backup.path)
                        }
                        throw OutputError(
                            path: target.relativePath, reason: "\(reason); the files written before it were put back")
                    }
                    registered.remove(temporary.path)
                }
                for case let backup? in backups where registered.remove(backup.path) != nil { unlink(backup.path) }
            } catch {
                for (temporary, _) in temporaries where registered.remove(temporary.path) != nil {
                    unlink(temporary.path)
                }
                throw error
            }
        }
        for (data, url) in streams {
            // The process's own standard output and error are written where they are, at their offset, as the rest
            // of the output is; opening them anew would start a redirected file over from its beginning.
            let standard: FileHandle? =
                switch URL(fileURLWithPath: url.path).standardizedFileURL.path {
                case "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1": FileHandle.standardOutput
                case "/dev/stderr", "/dev/fd/2", "/proc/self/fd/2": FileHandle.standardError
                default: nil
                }
            guard let handle = standard ?? FileHandle(forWritingAtPath: url.path) else {
                throw OutputError(path: url.relativePath, reason: "cannot be opened for writing")
            }
            defer { if standard == nil { try? handle.close() } }
            do {
                try handle.write(contentsOf: data)
            } catch {
                throw OutputError(path: url.relativePath, reason: reason(error))
            }
        }
    }

    /// Whether `path` names a stream to write into rather than a file to replace: anything under `/dev/` or
    /// `/proc/` (`/dev/stdout` is a link that may end at a file the shell opened), a named pipe, a socket or a device.
    public static func isStream(_ path: String) -> Bool {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        if absolute.hasPrefix("/dev/") || absolute.hasPrefix("/proc/") { return true }
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        let kind = info.st_mode & S_IFMT
        return kind == S_IFIFO || kind == S_IFCHR || kind == S_IFSOCK || kind == S_IFBLK
    }

    /// Why a file could not be written into a writable folder: a full disk or quota says so.
    private static func writeFailure(_ byteCount: Int, in folder: URL) -> String {
        var info = statvfs()
        if statvfs(folder.path, &info) == 0, UInt64(info.f_bavail) * UInt64(info.f_frsize) < UInt64(byteCount) {
            return
                "the disk is full (\(byteCount) bytes to write, \(UInt64(info.f_bavail) * UInt64(info.f_frsize)) free)"
        }
        return "writing failed (\(String(cString: strerror(errno))))"
    }

    /// Refuses outputs that would overwrite one of the inputs, or one another: the same file however it is spelt
    /// (another path, a symbolic link, a hard link).
    ///
    /// - Parameters:
    ///   - outputs: each output's option and path, e.g. `("--layout", "pts.json")`.
    ///   - inputs: each input's option and path; names of nothing on disk (URLs, templates, bundled style names)
    ///     never match, since there is nothing there to lose.
    /// - Throws: ``OutputError`` naming the output and the input it would replace.
    public static func refuseOverwriting(
        _ outputs: [(option: String, path: String)], inputs: [(option: String, path: String)]
    ) throws {
        /// The device and inode of an existing file or folder.
        func existing(_ path: String) -> String? {
            var info = stat()
            return stat(path, &info) == 0 ? "\(info.st_dev):\(info.st_ino)" : nil
        }
        /// The device and inode of an existing file, else its absolute path with links resolved.
        func identity(_ path: String) -> String {
            existing(path) ?? URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        }
        let onDisk = inputs.compactMap { input in existing(input.path).map { (input: input, identity: $0) } }
        let targets = outputs.map { identity($0.path) }
        for (index, (output, target)) in zip(outputs, targets).enumerated() {
            if let input = onDisk.first(where: { $0.identity == target })?.input {
                throw OutputError(
                    path: output.path,
                    reason:
                        "\(output.option) would overwrite the \(input.option) file \(input.path); choose another file")
            }
            if let other = zip(outputs, targets).prefix(index).first(where: { $0.1 == target })?.0 {
                throw OutputError(
                    path: output.path,
                    reason: "\(output.option) and \(other.option) name the same file; choose two files")
            }
        }
    }

    /// Fails unless the folder `path` would be written into exists, is a folder and is writable: checked before a long
    /// job, so that a mistyped folder is said at once rather than after the work.
    ///
    /// - Throws: ``OutputError`` naming `path`.
    public static func requireWritableFolder(for path: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().relativePath
        switch item(atPath: folder) {
        case .folder:
            guard access(folder, W_OK) == 0 else { throw OutputError(path: path, reason: "the folder is not writable") }
        case .file: throw OutputError(path: path, reason: "\(folder) is not a folder")
        case nil: throw OutputError(path: path, reason: "the folder \(folder) does not exist")
        }
    }

    /// What a path names on disk (a symbolic link counts as what it points to).
    public enum Item: Sendable { case file, folder }

    /// A path's absolute components with every link on the way followed, also where its last parts do not exist yet:
    /// the deepest part that exists is resolved and the rest put back (Foundation resolves nothing of a path that does
    /// not exist, so a new folder under a link into another passed for one outside it).
    public static func resolvedComponents(_ path: String) -> [String] {
        var existing = URL(fileURLWithPath: path).standardizedFileURL, rest: [String] = []
        while item(atPath: existing.path) == nil, existing.pathComponents.count > 1 {
            rest.insert(existing.lastPathComponent, at: 0)
            existing = existing.deletingLastPathComponent()
        }
        return existing.resolvingSymlinksInPath().pathComponents + rest
    }

    /// Whether `path` is `folder` or lies under it, every link on the way followed (also where its last parts do not
    /// exist yet).
    public static func isInside(_ path: String, _ folder: String) -> Bool {
        resolvedComponents(path).starts(with: resolvedComponents(folder))
    }

    /// What `path` names, or nil when nothing is there.
    public static func item(atPath path: String) -> Item? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
        return isFolder.boolValue ? .folder : .file
    }

    /// A short reason for a Foundation file error (e.g. "no such file").
    public static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(underlying.code)))
        }
        switch nsError.code {
        case NSFileReadNoSuchFileError, NSFileNoSuchFileError: return "no such file"
        case NSFileReadNoPermissionError: return "permission denied"
        default: return nsError.localizedDescription
        }
    }
}

/// An output file that could not be written.
public struct OutputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file that was to be written.
    public var path: String
    /// Why it could not be.
    public var reason: String

    /// Creates an error from its parts.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `cannot write FILE: reason`.
    public var description: String { "cannot write \(path): \(reason)" }
}

extension OutputError: DeclutterError {
    /// An output that cannot be written is one the input named wrongly: a folder that is not there, a file that is a
    /// folder.
    public var kind: FailureKind { .badInput }

    /// The output.
    public var field: String? { "output" }
}
