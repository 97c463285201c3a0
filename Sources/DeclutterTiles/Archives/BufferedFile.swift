import Foundation

/// A file written through a buffer of its own and read back by offset: the PMTiles writer's data file and archive.
/// Owns its descriptor and closes it in `deinit`.
final class BufferedFile {
    /// The file's path, for messages.
    let path: String
    /// The output the file belongs to, as messages name it.
    let output: String
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    private let capacity: Int
    /// Bytes written to the descriptor so far; the buffer follows them.
    private(set) var flushedSize: UInt64 = 0

    /// Creates (or truncates) the file at `path`.
    ///
    /// - Throws: ``OutputError`` naming `output` when the file cannot be created.
    init(creating path: String, for output: String, bufferSize: Int = 1 << 20) throws {
        self.path = path
        self.output = output
        capacity = bufferSize
        descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw TemporaryOutput.error(output, errno, doing: "creating \(path)") }
        buffer.reserveCapacity(bufferSize)
    }

    deinit { if descriptor >= 0 { Foundation.close(descriptor) } }

    /// The file's size, buffered bytes included.
    var size: UInt64 { flushedSize + UInt64(buffer.count) }

    /// Appends bytes.
    func write(_ data: Data) throws {
        try data.withUnsafeBytes { try write($0) }
    }

    /// Appends bytes.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        if buffer.count + bytes.count > capacity { try flush() }
        if bytes.count >= capacity {
            try writeFully(bytes)
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    /// Writes the buffer to the file.
    func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { try writeFully($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes bytes over the file's own at `offset`, which with them must lie within what was written.
    func write(_ data: Data, at offset: UInt64) throws {
        precondition(offset + UInt64(data.count) <= size, "an overwrite past the end of \(path)")
        try flush()
        try data.withUnsafeBytes { bytes in
            var done = 0
            while done < bytes.count {
                let written = pwrite(
                    descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
                if written < 0, errno == EINTR { continue }
                guard written > 0 else {
                    throw TemporaryOutput.error(output, written < 0 ? errno : ENOSPC, doing: "writing \(path)")
                }
                done += written
            }
        }
    }

    /// Reads `count` bytes at `offset`, from the file or the buffer.
    func read(at offset: UInt64, count: Int) throws -> Data {
        if offset >= flushedSize {
            let start = Int(offset - flushedSize)
            return Data(buffer[start..<(start + count)])
        }
        try flush()
        var data = Data(count: count)
        let read = data.withUnsafeMutableBytes { target in pread(descriptor, target.baseAddress, count, off_t(offset)) }
        guard read == count else {
            throw TemporaryOutput.error(output, read < 0 ? errno : EIO, doing: "reading back \(path)")
        }
        return data
    }

    /// Flushes, syncs nothing (the rename is what makes the output appear) and closes the descriptor.
    func close() throws {
        try flush()
        let status = Foundation.close(descriptor)
        descriptor = -1
        guard status == 0 else { throw TemporaryOutput.error(output, errno, doing: "closing \(path)") }
    }

    private func writeFully(_ bytes: UnsafeRawBufferPointer) throws {
        var done = 0
        while done < bytes.count {
            let written = Foundation.write(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                throw TemporaryOutput.error(output, written < 0 ? errno : ENOSPC, doing: "writing \(path)")
            }
            done += written
            flushedSize += UInt64(written)
        }
    }
}
