import Foundation

/// A file opened for reading by offset from any thread (`pread(2)`): an archive's directories and tiles, and the
/// byte ranges a server hands out of it. Owns its descriptor and closes it in `deinit`.
public final class ReadOnlyFile: Sendable {
    /// The file's path, for messages.
    public let path: String
    /// Its size in bytes when it was opened.
    public let size: Int
    /// A strong entity tag for the bytes read through it: the file's inode, size and modification time when it was
    /// opened. A file written anew (or replaced) gets another; the open descriptor keeps reading the bytes it opened.
    public let entityTag: String
    private let descriptor: Int32

    /// Opens the file at `path`.
    ///
    /// - Throws: ``TilesetArchiveError`` when it is missing, a folder, or cannot be opened.
    public init(path: String) throws {
        self.path = path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw TilesetArchiveError("\(path): cannot open it (\(String(cString: strerror(errno))))")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            Foundation.close(descriptor)
            throw TilesetArchiveError("\(path): not a file")
        }
        self.descriptor = descriptor
        size = Int(status.st_size)
        let modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        let parts = [UInt64(status.st_ino), UInt64(status.st_size), UInt64(bitPattern: modified)]
        entityTag = "\"" + parts.map { String($0, radix: 16) }.joined(separator: "-") + "\""
    }

    deinit { Foundation.close(descriptor) }

    /// The bytes `offset..<offset + length`.
    ///
    /// - Throws: ``TilesetArchiveError`` when the range runs past the file's end (a damaged archive's offsets) or
    /// the read fails.
    public func read(offset: UInt64, length: UInt64) throws -> Data {
        guard offset <= UInt64(size), length <= UInt64(size) - offset else {
            throw TilesetArchiveError(
                "\(path): bytes \(offset)…\(offset &+ length) asked for, past the end of its \(size) bytes")
        }
        var data = Data(count: Int(length))
        var done = 0
        try data.withUnsafeMutableBytes { buffer in
            while done < buffer.count {
                let count = pread(
                    descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(Int(offset) + done))
                guard count > 0 else {
                    throw TilesetArchiveError(
                        "\(path): reading failed (\(count == 0 ? "the file is shorter than it was" : String(cString: strerror(errno))))"
                    )
                }
                done += count
            }
        }
        return data
    }
}
