import CZlib
import Foundation

/// A gzip compressor (RFC 1952) for tiles and directories, reused from one tile to the next: tippecanoe compresses
/// MBTiles and PMTiles tiles the same way, at zlib's level 6 unless told otherwise.
///
/// Restarting a stream clears its hash table, 64 kB at zlib's default sizes, which for a tile of 200 bytes costs more
/// than compressing it. So, as the PNG encoder does, each input gets a stream whose window just holds it (2^9 to
/// 2^15 bytes, with a hash table to match); the output is the same gzip any reader inflates.
///
/// Owns its zlib streams; use it from one thread at a time.
public final class Gzip {
    private static let smallestWindow: Int32 = 9, largestWindow: Int32 = 15
    /// One stream per window size, started when first needed.
    private let streams: UnsafeMutablePointer<z_stream>
    private var started = [Bool](repeating: false, count: Int(largestWindow - smallestWindow + 1))
    private let level: Int32
    /// The output buffer, grown to the largest tile's bound.
    private var buffer: [UInt8] = []

    /// Starts a compressor at `level`, 0 (stored) to 9 (smallest); 6 is zlib's and tippecanoe's default.
    ///
    /// - Throws: ``GzipError`` when the level is out of range or zlib has no memory.
    public init(level: Int32 = 6) throws {
        guard (0...9).contains(level) else { throw GzipError("the compression level \(level) is not within 0…9") }
        self.level = level
        streams = .allocate(capacity: started.count)
        streams.initialize(repeating: z_stream(), count: started.count)
        // Started once here so that a level zlib refuses fails now, not at the first tile.
        _ = try stream(forBytes: 0)
    }

    deinit {
        for index in started.indices where started[index] { deflateEnd(streams + index) }
        streams.deallocate()
    }

    /// The stream whose window holds `count` bytes (plus zlib's 262-byte lookahead), reset for a new member.
    private func stream(forBytes count: Int) throws -> UnsafeMutablePointer<z_stream> {
        var windowBits = Self.smallestWindow
        while windowBits < Self.largestWindow && (1 << windowBits) < count + 262 { windowBits += 1 }
        let index = Int(windowBits - Self.smallestWindow)
        let stream = streams + index
        if started[index] {
            guard deflateReset(stream) == Z_OK else { throw GzipError("zlib could not restart") }
        } else {
            // windowBits + 16 asks zlib for a gzip header and trailer instead of zlib's.
            let status = deflateInit2_(stream, level, Z_DEFLATED, windowBits + 16, max(1, min(8, windowBits - 7)),
                                       Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
            guard status == Z_OK else { throw GzipError("zlib could not start (status \(status))") }
            started[index] = true
        }
        return stream
    }

    /// Compresses `data` into one gzip member.
    public func compress(_ data: Data) throws -> Data {
        try data.withUnsafeBytes { input in try compress(input) }
    }

    /// Compresses bytes into one gzip member.
    public func compress(_ input: UnsafeRawBufferPointer) throws -> Data {
        let stream = try stream(forBytes: input.count)
        let bound = Int(deflateBound(stream, uLong(input.count)))
        if buffer.count < bound { buffer = [UInt8](repeating: 0, count: bound) }
        return try buffer.withUnsafeMutableBufferPointer { output -> Data in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self))
            stream.pointee.avail_in = uInt(input.count)
            stream.pointee.next_out = output.baseAddress
            stream.pointee.avail_out = uInt(output.count)
            // The output holds deflateBound's bytes, so one call finishes the member.
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
}
