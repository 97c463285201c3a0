/// How an image's 32-bit pixels lie in memory: what ``PNGEncoder`` reads and ``PNGDecoder`` writes.
///
/// Rows may be padded: every call that takes pixels also takes the distance between rows in bytes.
public enum PixelLayout: Sendable, Hashable {
    /// cairo's ARGB32: native-endian words `alpha << 24 | red << 16 | green << 8 | blue`, colours premultiplied by
    /// alpha, as image surfaces hold them.
    case premultipliedARGB32
    /// Straight (not premultiplied) red, green, blue and alpha bytes in memory order, as `RGBAImage` holds them.
    case straightRGBA

    /// Straight RGBA bytes, `width · height · 4` of them without row padding, from premultiplied ARGB32 pixels
    /// `rowBytes` apart, rounding as cairo's PNG writer does.
    ///
    /// `pixels` must hold `(height - 1) · rowBytes + width · 4` bytes.
    public static func straightRGBA(
        fromPremultiplied pixels: UnsafeRawBufferPointer, width: Int, height: Int,
        rowBytes: Int
    ) -> [UInt8] {
        precondition(
            width >= 0 && height >= 0 && rowBytes >= width * 4, "rows of \(rowBytes) bytes cannot hold \(width) pixels")
        guard width > 0, height > 0 else { return [] }
        precondition(
            pixels.count >= (height - 1) * rowBytes + width * 4, "the buffer holds fewer than \(width)×\(height) pixels"
        )
        var output = [UInt8](repeating: 0, count: width * height * 4)
        output.withUnsafeMutableBytes { target in
            // Both buffers are non-empty: width and height are positive and the sizes were checked.
            let words = target.baseAddress!.assumingMemoryBound(to: UInt32.self)
            let source = pixels.baseAddress!.assumingMemoryBound(to: UInt8.self)
            for y in 0..<height {
                Self.premultipliedARGB32.straightRow(source + y * rowBytes, width: width, into: words + y * width)
            }
        }
        return output
    }

    /// One premultiplied ARGB32 word as straight red, green, blue and alpha bytes, rounding as cairo's PNG writer does.
    public static func unpremultiply(_ word: UInt32) -> [UInt8] {
        let (red, green, blue, alpha) = straight(word)
        return [red, green, blue, alpha]
    }

    /// One premultiplied ARGB word as straight red, green, blue, alpha.
    @inline(__always)
    static func straight(_ word: UInt32) -> (UInt8, UInt8, UInt8, UInt8) {
        let pixel = straightPixel(word)
        return (
            UInt8(truncatingIfNeeded: pixel), UInt8(truncatingIfNeeded: pixel >> 8),
            UInt8(truncatingIfNeeded: pixel >> 16),
            UInt8(truncatingIfNeeded: pixel >> 24)
        )
    }

    /// Whether every pixel has full alpha. In both layouts (on little-endian machines) alpha is a word's high byte.
    func isOpaque(_ source: UnsafePointer<UInt8>, width: Int, height: Int, rowBytes: Int) -> Bool {
        for y in 0..<height {
            let words = UnsafeRawPointer(source + y * rowBytes).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width where words[x] >> 24 != 0xFF { return false }
        }
        return true
    }

    /// Converts one row to straight pixels packed red | green << 8 | blue << 16 | alpha << 24, which on
    /// little-endian machines are the RGBA bytes of a PNG scanline.
    @inline(__always)
    func straightRow(_ source: UnsafePointer<UInt8>, width: Int, into out: UnsafeMutablePointer<UInt32>) {
        switch self {
        case .straightRGBA: UnsafeMutableRawPointer(out).copyMemory(from: source, byteCount: width * 4)
        case .premultipliedARGB32: Self.unpremultiplyRow(source, width: width, into: out)
        }
    }

    /// Converts one row to the straight RGB or RGBA bytes of a PNG scanline.
    func scanlineRow(_ source: UnsafePointer<UInt8>, width: Int, channels: Int, into out: UnsafeMutablePointer<UInt8>) {
        guard channels == 3 else {
            UnsafeMutableRawPointer(out).withMemoryRebound(to: UInt32.self, capacity: width) { pixels in
                straightRow(source, width: width, into: pixels)
            }
            return
        }
        // Opaque rows (maps): no alpha to undo, three bytes a pixel.
        switch self {
        case .straightRGBA:
            for x in 0..<width {
                out[3 * x] = source[4 * x]
                out[3 * x + 1] = source[4 * x + 1]
                out[3 * x + 2] = source[4 * x + 2]
            }
        case .premultipliedARGB32:
            let words = UnsafeRawPointer(source).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let word = words[x]
                out[3 * x] = UInt8(truncatingIfNeeded: word >> 16)
                out[3 * x + 1] = UInt8(truncatingIfNeeded: word >> 8)
                out[3 * x + 2] = UInt8(truncatingIfNeeded: word)
            }
        }
    }

    /// Converts one row of premultiplied ARGB words to straight pixels packed red | green << 8 | blue << 16 | alpha <<
    /// 24.
    static func unpremultiplyRow(_ source: UnsafePointer<UInt8>, width: Int, into out: UnsafeMutablePointer<UInt32>) {
        let words = UnsafeRawPointer(source).assumingMemoryBound(to: UInt32.self)
        // The table once: each access to the global checks that it was initialised, a call per edge pixel.
        let table = unpremultiplyTable
        var x = 0
        // Four at a time where all four are opaque (red and blue swap places) or all clear (zero), as most of a drawn
        // image is; a branch per pixel mispredicted at every edge between the two.
        while x + 4 <= width {
            let four = UnsafeRawPointer(words + x).loadUnaligned(as: SIMD4<UInt32>.self)
            let alphas = four &>> 24
            if alphas == SIMD4(repeating: 255) {
                let straight = (four &>> 16) & 0xFF | four & 0xFF00 | (four & 0xFF) &<< 16 | 0xFF00_0000
                UnsafeMutableRawPointer(out + x).storeBytes(of: straight, as: SIMD4<UInt32>.self)
            } else if alphas == .zero {
                UnsafeMutableRawPointer(out + x).storeBytes(of: .zero, as: SIMD4<UInt32>.self)
            } else {
                for index in x..<x + 4 { out[index] = straightPixel(words[index], table: table) }
            }
            x += 4
        }
        while x < width {
            out[x] = straightPixel(words[x], table: table)
            x += 1
        }
    }

    /// One premultiplied ARGB word as a straight pixel packed red | green << 8 | blue << 16 | alpha << 24, rounding
    /// as cairo's PNG writer does: `(value · 255 + alpha / 2) / alpha`, looked up.
    @inline(__always)
    static func straightPixel(_ word: UInt32, table: UnsafePointer<UInt8> = unpremultiplyTable) -> UInt32 {
        let alpha = word >> 24
        if alpha == 255 { return (word >> 16) & 0xFF | word & 0xFF00 | (word & 0xFF) << 16 | 0xFF00_0000 }
        guard alpha != 0 else { return 0 }
        let row = table + Int(alpha) << 8
        return UInt32(row[Int((word >> 16) & 0xFF)]) | UInt32(row[Int((word >> 8) & 0xFF)]) << 8
            | UInt32(row[Int(word & 0xFF)]) << 16 | alpha << 24
    }

    /// Every un-premultiplied channel value, at `alpha << 8 | premultiplied`: a lookup instead of three divisions.
    nonisolated(unsafe) static let unpremultiplyTable: UnsafePointer<UInt8> = {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << 16)
        for alpha in 0..<256 {
            for value in 0..<256 {
                table[alpha << 8 | value] = alpha == 0 ? 0 : UInt8(min((value * 255 + alpha / 2) / alpha, 255))
            }
        }
        return UnsafePointer(table)
    }()
}
