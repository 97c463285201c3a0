import CZlib

/// Inflates a PNG's image data with zlib exactly as libpng 1.6 reads it, so that a damaged stream is refused or read
/// just where libpng (and so cairo's loader) refuses or reads it.
///
/// The decoder's fast path (libdeflate, one call) decides only clean streams; every other stream comes here. libpng
/// inflates one scanline at a time from `IDAT` pieces of at most 8,192 bytes, with the window the zlib header declares:
/// damage met while a scanline is being filled is an error, even in the call that fills the last one (which goes on to
/// the stream's end and its Adler-32 when they are at hand); once every scanline is full, it reads on to the stream's
/// end, where damage or data beyond the image is only a warning but running out of `IDAT` data is still an error.
struct ImageDataInflater {
    /// The bytes of the file.
    let file: UnsafeBufferPointer<UInt8>
    /// The bodies of the consecutive `IDAT` chunks, in order.
    let parts: [Range<Int>]
    /// The length of every scanline with its filter byte, pass after pass.
    let scanlines: [Int]

    /// libpng's `PNG_IDAT_READ_SIZE`: how much of an `IDAT` body it hands zlib at once.
    static let pieceSize = 8_192
    /// libpng's `PNG_INFLATE_BUF_SIZE`: the scratch buffer of its read past the last scanline.
    static let scratchSize = 1_024

    /// Inflates every scanline into `target`, which holds their sum.
    func inflate(into target: UnsafeMutablePointer<UInt8>) throws {
        guard let base = file.baseAddress else { throw PNGDecoder.DecodingError("the image data is too short") }
        var stream = z_stream()
        // Window bits 0: the window the stream's header declares, as libpng asks for.
        guard inflateInit2_(&stream, 0, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw PNGDecoder.DecodingError("zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var pieces = parts.lazy.flatMap { part in
            stride(from: part.lowerBound, to: part.upperBound, by: Self.pieceSize).map {
                $0..<min($0 + Self.pieceSize, part.upperBound)
            }
        }.makeIterator()
        /// Gives zlib the next piece when it has used the last; false when the `IDAT` chunks are used up.
        func feed() -> Bool {
            guard stream.avail_in == 0 else { return true }
            guard let piece = pieces.next() else { return false }
            stream.next_in = UnsafeMutablePointer(mutating: base + piece.lowerBound)
            stream.avail_in = UInt32(piece.count)
            return true
        }
        func damaged(_ status: Int32) -> PNGDecoder.DecodingError {
            let reason = stream.msg.map { String(cString: $0) } ?? "zlib status \(status)"
            return PNGDecoder.DecodingError("the image data is damaged (\(reason))")
        }
        var ended = false
        var output = target
        for length in scanlines {
            stream.next_out = output
            stream.avail_out = UInt32(length)
            while stream.avail_out > 0 {
                guard !ended, feed() else { throw PNGDecoder.DecodingError("the image data is too short") }
                let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                if status == Z_STREAM_END {
                    ended = true
                    continue
                }
                guard status == Z_OK else { throw damaged(status) }
            }
            output += length
        }
        guard !ended else { return }
        // Past the last scanline: read on while the stream gives bytes; only running out of data is an error here.
        var scratch = [UInt8](repeating: 0, count: Self.scratchSize)
        var extra = 0
        try scratch.withUnsafeMutableBufferPointer { scratch in
            repeat {
                guard feed() else {
                    throw PNGDecoder.DecodingError("the image data is too short (its stream does not end)")
                }
                stream.next_out = scratch.baseAddress
                stream.avail_out = UInt32(scratch.count)
                let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                extra += scratch.count - Int(stream.avail_out)
                if status != Z_OK { return }
            } while extra > 0
        }
    }
}
