import CLibDeflate
import CZlib
import DeclutterSupport
import Foundation

/// A gzip compressor (RFC 1952) for tiles and directories, reused from one tile to the next: tippecanoe compresses
/// MBTiles and PMTiles tiles with gzip too, at zlib's level 6 unless told otherwise.
///
/// Inputs of at most ``FixedCodeDeflater/maximumInput`` bytes (most vector tiles) are compressed by
/// ``FixedCodeDeflater``, larger ones by libdeflate at `level`: on tiles of 170 bytes or so libdeflate takes 7.6–7.9 µs
/// a tile whatever the level, most of it work per call that a small input does not need. Use it from one thread at
/// a time.
public final class Gzip {
    private let compressor: OpaquePointer
    /// Compresses the small inputs; nil at level 0, which stores.
    private let small: FixedCodeDeflater?
    /// The output buffer, grown to the largest tile's bound.
    private var buffer: [UInt8] = []

    /// Starts a compressor at `level`, 0 (stored) to 9 (smallest); 6 is zlib's, libdeflate's and tippecanoe's default.
    ///
    /// - Throws: ``GzipError`` when the level is not within 0…9, or there is no memory.
    public init(level: Int32 = 6) throws {
        guard (0...9).contains(level) else { throw GzipError("the compression level \(level) is not within 0…9") }
        guard let compressor = libdeflate_alloc_compressor(level) else {
            throw GzipError("libdeflate could not start (no memory)")
        }
        self.compressor = compressor
        small = level > 0 ? FixedCodeDeflater() : nil
    }

    deinit { libdeflate_free_compressor(compressor) }

    /// Compresses `data` into one gzip member.
    public func compress(_ data: Data) throws -> Data {
        try data.withUnsafeBytes { input in try compress(input) }
    }

    /// Compresses bytes into one gzip member.
    public func compress(_ input: UnsafeRawBufferPointer) throws -> Data {
        if let small, input.count <= FixedCodeDeflater.maximumInput { return small.gzip(input) }
        let bound = libdeflate_gzip_compress_bound(compressor, input.count)
        if buffer.count < bound { buffer = [UInt8](repeating: 0, count: bound) }
        return try buffer.withUnsafeMutableBytes { output -> Data in
            // The output holds the bound's bytes, so the member always fits.
            let written = libdeflate_gzip_compress(
                compressor, input.baseAddress, input.count, output.baseAddress, output.count)
            guard written > 0, let start = output.baseAddress else {
                throw GzipError("libdeflate could not compress \(input.count) bytes")
            }
            return Data(bytes: start, count: written)
        }
    }

    /// Decompresses one gzip member (or zlib stream), as readers of the archives do.
    ///
    /// - Throws: ``GzipError`` when the bytes are not gzip, are cut short, or inflate to more than `limit` bytes (a
    /// few compressed bytes can claim gigabytes).
    public static func decompress(_ data: Data, limit: Int = .max) throws -> Data {
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
                        throw GzipError(
                            status == Z_BUF_ERROR ? "the gzip data ends early" : "not gzip data (zlib status \(status))"
                        )
                    }
                    output.append(buffer.baseAddress!, count: buffer.count - Int(stream.avail_out))
                    guard output.count <= limit else {
                        throw GzipError("the gzip data inflates to more than \(limit) bytes")
                    }
                }
            }
        }
        return output
    }

    /// Refuses an archive file's path that is a folder, and a level not within 0…9, in the same words for every
    /// archive.
    ///
    /// - Throws: ``OutputError`` naming `path`.
    package static func checkArchive(at path: String, level: Int32) throws {
        if FileSystem.item(atPath: path) == .folder { throw OutputError(path: path, reason: "is a folder, not a file") }
        guard (0...9).contains(level) else {
            throw OutputError(path: path, reason: "the compression level \(level) is not within 0…9")
        }
    }
}
