import Foundation

/// The part of a CSV stream not yet parsed: the record the last chunk ended inside, then the next chunk.
///
/// Where the last whole record ends is found by scanning each byte once, counting quotes as
/// ``CSVParser/recordRuns(_:from:line:parts:)`` does (a line break ends a record when the quotes before it since the
/// last record's end are even).
struct CSVChunks: ~Copyable {
    /// Bytes read at a time.
    let chunkSize: Int
    private var storage: [UInt8] = []
    /// Bytes held.
    private(set) var count = 0
    /// Whether the stream has ended.
    private(set) var ended = false
    /// Bytes already scanned, and whether that scan ended inside a quoted field.
    private var scanned = 0, inQuotes = false
    /// Line breaks among the scanned bytes.
    private var scannedLines = 0
    /// Where the last whole record among the scanned bytes ends, and the line breaks before it.
    private var recordEnd = 0, recordLines = 0

    init(chunkSize: Int) {
        self.chunkSize = chunkSize
    }

    /// Appends up to a chunk from `read` (which fills what it can of a buffer and returns the bytes written, 0 at the
    /// end), calling it until the chunk is full or the stream ends.
    mutating func fill(from read: (UnsafeMutableRawBufferPointer) throws -> Int) throws {
        let target = count + chunkSize
        if storage.count < target {
            // Exactly what is needed: the carried record plus a chunk, not the array's doubling.
            storage.reserveCapacity(target)
            storage.append(contentsOf: repeatElement(0, count: target - storage.count))
        }
        while count < target && !ended {
            let start = count
            let written = try storage.withUnsafeMutableBytes {
                try read(UnsafeMutableRawBufferPointer(rebasing: $0[start..<target]))
            }
            if written == 0 { ended = true } else { count += min(written, target - start) }
        }
    }

    /// The end of the last whole record held (just past its line break; 0 when none has ended) and the line breaks
    /// before it.
    mutating func recordsEnd() -> (end: Int, lines: Int) {
        storage.withUnsafeBufferPointer { storage in
            let bytes = UnsafeBufferPointer(rebasing: storage[..<count])
            var position = scanned
            while position < count {
                // A carriage return last of the bytes held waits for the next: it ends a line unless a line feed
                // follows.
                if bytes[position] == UInt8(ascii: "\r") && position + 1 == count { break }
                if bytes[position] == UInt8(ascii: "\"") { inQuotes.toggle() }
                if CSVParser.endsLine(bytes, at: position) {
                    scannedLines += 1
                    if !inQuotes { (recordEnd, recordLines) = (position + 1, scannedLines) }
                }
                position += 1
            }
            scanned = position
        }
        return (recordEnd, recordLines)
    }

    /// The first `count` bytes held, for a parse.
    func withBytes<Value>(_ count: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Value) rethrows -> Value {
        try storage.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[..<count])) }
    }

    /// A copy of the first `count` bytes held.
    func prefix(_ count: Int) -> Data {
        withBytes(min(count, self.count)) { Data(buffer: $0) }
    }

    /// Forgets the first `count` bytes (parsed), moving the rest to the front.
    mutating func drop(_ dropped: Int) {
        let kept = count - dropped
        storage.withUnsafeMutableBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            UnsafeMutableRawPointer(base).copyMemory(from: base + dropped, byteCount: kept)  // a memmove: they overlap
        }
        count = kept
        scanned = max(0, scanned - dropped)
        // Only whole records are dropped: the scan restarts outside quotes at the last record's end.
        if dropped >= recordEnd {
            scannedLines -= recordLines
            (recordEnd, recordLines) = (0, 0)
        }
    }
}
