import Foundation

extension PointReader {
    /// Reads points from input that is not a file (standard input, say), in ``format`` or else the one its first chunk
    /// suggests (``PointFormat/sniffed(from:)``); `name` stands for the input in messages, e.g. `<stdin>`.
    ///
    /// CSV is read `chunkSize` bytes at a time: the chunk's whole records are read (on every core, as a file's are)
    /// and the record the chunk ends inside is carried over to the next chunk, so memory holds the points and about one
    /// chunk, not the whole text; lines are counted across chunks. GeoJSON and the plist are read whole, then parsed.
    ///
    /// - Parameters:
    ///   - read: fills as much of the buffer it is given as it can and returns how many bytes it wrote, 0 at the end.
    ///   - chunkSize: bytes read at a time, at least 1.
    /// - Throws: ``InputError`` naming the input and the line, feature or field; what `read` throws.
    public func read(from read: (UnsafeMutableRawBufferPointer) throws -> Int, name: String, chunkSize: Int = 8 << 20)
        throws -> Result
    {
        precondition(chunkSize > 0, "a chunk holds at least one byte")
        var buffer = CSVChunks(chunkSize: chunkSize)
        try buffer.fill(from: read)
        let format = format ?? PointFormat.sniffed(from: buffer.prefix(4_096))
        // As a file's first bytes are checked: a stream of zeros (`/dev/zero`) has no line break to end a record at
        // and would be read for ever.
        if format != .plist, let error = format.notText(buffer.prefix(min(buffer.count, 1 << 16)), file: name) {
            throw error
        }
        guard format == .csv else {
            while !buffer.ended { try buffer.fill(from: read) }
            return try self.read(buffer.prefix(buffer.count), name: name, format: format)
        }
        let separator = try csvSeparator(file: name)
        var header: CSVHeader?
        var result = Result(points: [], skipped: 0, problems: [])
        // The line the buffer's first byte is on.
        var line = 1
        while true {
            // Whole records up to the last line break outside quotes; at the end, everything left.
            let (end, lines) = buffer.ended ? (buffer.count, 0) : buffer.recordsEnd()
            if end > 0 {
                try buffer.withBytes(end) { bytes in
                    var start = 0, firstLine = line
                    if header == nil {
                        guard let parsed = try readCSVHeader(bytes, separator: separator, file: name) else { return }
                        (header, start, firstLine) = (parsed.header, parsed.bodyStart, parsed.line)
                    }
                    if let header {
                        let opensFile = result.points.isEmpty && result.skipped == 0
                        result.append(
                            try readRecords(
                                bytes, from: start, line: firstLine, header: header, file: name, opensFile: opensFile))
                    }
                }
                buffer.drop(end)
                line += lines
            }
            if buffer.ended { break }
            try buffer.fill(from: read)
        }
        guard header != nil else {
            throw InputError(file: name, location: nil, message: "the input is empty; expected a header row")
        }
        return result
    }
}

extension PointReader {
    /// The whole of `path` when it is `-` (standard input), a pipe or a device rather than a regular file (`--input
    /// <(…)`), up to `limit` bytes; nil for a regular file, which the caller reads as a file.
    ///
    /// - Throws: ``InputError`` naming `path` when it cannot be read or holds more than `limit` bytes.
    package static func wholeStream(_ path: String, limit: Int) throws -> Data? {
        let isStandardInput = path == "-"
        guard let descriptor = isStandardInput ? STDIN_FILENO : try openStream(path, file: path) else { return nil }
        defer { if !isStandardInput { close(descriptor) } }
        var data = Data()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = try readStream(
                descriptor, into: buffer, file: path, what: isStandardInput ? "standard input" : "the file")
            guard count > 0 else { return data }
            guard data.count + count <= limit else {
                throw InputError(
                    file: path, location: nil, message: "holds more than \(limit >> 20) MiB; expected a smaller input")
            }
            data.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// A descriptor open for reading when `path` is a pipe or a device rather than a regular file, else nil.
    ///
    /// - Throws: ``InputError`` naming `file` when it cannot be opened.
    static func openStream(_ path: String, file: String) throws -> Int32? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFIFO || kind == S_IFCHR else { return nil }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw InputError(
                file: file, location: nil, message: "cannot read the file (\(String(cString: strerror(errno))))")
        }
        return descriptor
    }

    /// Fills what it can of `buffer` from `descriptor` (a pipe, standard input); returns the bytes read, 0 at its end.
    ///
    /// - Throws: ``InputError`` naming `file` when reading fails, saying it could not read `what`.
    package static func readStream(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, file: String, what: String = "the file"
    ) throws -> Int {
        while true {
            let count = Foundation.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            guard errno == EINTR else {
                throw InputError(
                    file: file, location: nil, message: "cannot read \(what) (\(String(cString: strerror(errno))))")
            }
        }
    }
}
