import CZlib
import DeclutterCore
import Foundation

/// A gzip compressor (RFC 1952) for tiles and directories, reused from one tile to the next: tippecanoe compresses
/// MBTiles and PMTiles tiles the same way, at zlib's level 6 unless told otherwise.
///
/// Owns one zlib stream, reset for each member; use it from one thread at a time. (A stream per input size, with a
/// window and hash table to fit, as the PNG encoder has, measured no faster here: 8.7 s of CPU for a million
/// 100–300-byte tiles either way, two thirds of it in deflate itself.)
public final class Gzip {
    /// Allocated apart: zlib keeps a pointer back to its z_stream, so the stream must never move.
    private let stream: UnsafeMutablePointer<z_stream>
    /// The output buffer, grown to the largest tile's bound.
    private var buffer: [UInt8] = []

    /// Starts a compressor at `level`, 0 (stored) to 9 (smallest); 6 is zlib's and tippecanoe's default.
    ///
    /// - Throws: ``GzipError`` when zlib refuses the level or has no memory.
    public init(level: Int32 = 6) throws {
        guard (0...9).contains(level) else { throw GzipError("the compression level \(level) is not within 0…9") }
        // 15 bits of window plus 16 asks zlib for a gzip header and trailer instead of zlib's.
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = deflateInit2_(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                                   ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deallocate()
            throw GzipError("zlib could not start (status \(status))")
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
    }

    /// Compresses `data` into one gzip member.
    public func compress(_ data: Data) throws -> Data {
        try data.withUnsafeBytes { input in try compress(input) }
    }

    /// Compresses bytes into one gzip member.
    public func compress(_ input: UnsafeRawBufferPointer) throws -> Data {
        guard deflateReset(stream) == Z_OK else { throw GzipError("zlib could not restart") }
        let bound = Int(deflateBound(stream, uLong(input.count)))
        if buffer.count < bound { buffer = [UInt8](repeating: 0, count: bound) }
        return try buffer.withUnsafeMutableBufferPointer { output -> Data in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self))
            stream.pointee.avail_in = uInt(input.count)
            stream.pointee.next_out = output.baseAddress
            stream.pointee.avail_out = uInt(output.count)
            // The output holds deflateBound's bytes, so one call finishes the stream.
            let status = deflate(stream, Z_FINISH)
            guard status == Z_STREAM_END, let start = output.baseAddress else { throw GzipError("zlib status \(status)") }
            return Data(bytes: start, count: output.count - Int(stream.pointee.avail_out))
        }
    }

    /// Decompresses one gzip member (or zlib stream), as readers of the archives do.
    ///
    /// - Throws: ``GzipError`` when the bytes are not gzip or are cut short.
    public static func decompress(_ data: Data) throws -> Data {
        var stream = z_stream()
        // 15 + 32: zlib detects a gzip or a zlib header.
        guard inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw GzipError("zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        try data.withUnsafeBytes { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self))
            stream.avail_in = uInt(input.count)
            var status = Z_OK
            while status != Z_STREAM_END {
                try chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    status = inflate(&stream, Z_NO_FLUSH)
                    guard status == Z_OK || status == Z_STREAM_END else {
                        throw GzipError(status == Z_BUF_ERROR ? "the gzip data ends early" : "not gzip data (zlib status \(status))")
                    }
                    output.append(buffer.baseAddress!, count: buffer.count - Int(stream.avail_out))
                }
            }
        }
        return output
    }

    /// Refuses an archive file's path that is a folder, and a level not within 0…9, in the same words for every
    /// archive.
    ///
    /// - Throws: ``OutputError`` naming `path`.
    static func checkArchive(at path: String, level: Int32) throws {
        if FileSystem.item(atPath: path) == .folder { throw OutputError(path: path, reason: "is a folder, not a file") }
        guard (0...9).contains(level) else { throw OutputError(path: path, reason: "the compression level \(level) is not within 0…9") }
    }
}
