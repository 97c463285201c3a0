import CZlib
import Foundation
import Testing

@testable import DeclutterPNG

/// Damaged image data is refused or read where libpng 1.6 refuses or reads it: damage met while the scanlines are
/// filled is an error, even in the zlib call that fills the last one; after that, only running out of data is.
@Suite struct PNGImageDataTests {
    /// A 2×1 RGB image, pixels (1, 2, 3) and (4, 5, 6), and its zlib stream of stored blocks.
    static let header = HandmadePNG.header(width: 2, height: 1, colorType: 2, bitDepth: 8)
    static let stream = HandmadePNG.zlibStored([0, 1, 2, 3, 4, 5, 6])
    static let pixels: [UInt8] = [1, 2, 3, 255, 4, 5, 6, 255]
    static let end = HandmadePNG.chunk("IEND", [])

    func decode(_ parts: [[UInt8]]) throws -> [UInt8] {
        try PNGDecoder.decode(
            HandmadePNG.file([Self.header] + parts.map { HandmadePNG.chunk("IDAT", $0) } + [Self.end])
        ).pixels
    }

    /// A bad Adler-32 in the same chunk as the image's last bytes is met in the call that fills the last scanline.
    @Test func aBadChecksumBesideTheImageIsRefused() {
        var damaged = Self.stream
        damaged[damaged.count - 1] ^= 1
        #expect(throws: PNGDecoder.DecodingError("the image data is damaged (incorrect data check)")) {
            try decode([damaged])
        }
    }

    /// In a chunk of its own it is met after the last scanline, where libpng only warns.
    @Test func aBadChecksumInALaterChunkIsRead() throws {
        var damaged = Self.stream
        damaged[damaged.count - 1] ^= 1
        #expect(try decode([Array(damaged.dropLast(4)), Array(damaged.suffix(4))]) == Self.pixels)
    }

    /// A stream that stops without its end (here, its checksum) leaves libpng reading into the next chunk.
    @Test func aStreamWithoutItsEndIsRefused() {
        #expect(throws: PNGDecoder.DecodingError("the image data is too short (its stream does not end)")) {
            try decode([Array(Self.stream.dropLast(4))])
        }
        #expect(throws: PNGDecoder.DecodingError("the image data is too short")) {
            try decode([Array(Self.stream.dropLast(6))])
        }
    }

    /// Data past the image, in the stream or in chunks of the same run, is read and dropped.
    @Test func moreDataThanTheImageIsRead() throws {
        #expect(try decode([HandmadePNG.zlibStored([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])]) == Self.pixels)
        #expect(try decode([Self.stream, [0xDE, 0xAD]]) == Self.pixels)
    }

    /// A stream whose header declares a 256-byte window may not copy from further back across scanlines: zlib, fed
    /// one scanline at a time as libpng feeds it, refuses the second row copied from the first, 301 bytes back.
    @Test func theDeclaredWindowIsKept() throws {
        let width = 300
        let header = HandmadePNG.header(width: width, height: 2, colorType: 0, bitDepth: 8)
        let rows: [UInt8] = (0..<2).flatMap { _ in [0] + (0..<width).map { UInt8($0 % 251) } }
        var compressed = [UInt8](repeating: 0, count: Int(compressBound(uLong(rows.count))))
        var length = uLongf(compressed.count)
        #expect(compress2(&compressed, &length, rows, uLong(rows.count), 9) == Z_OK)
        let stream = Array(compressed.prefix(Int(length)))
        #expect(stream.prefix(2) == [0x78, 0xDA])
        let full = try PNGDecoder.decode(HandmadePNG.file([header, HandmadePNG.chunk("IDAT", stream), Self.end]))
        #expect(full.pixels[(width + 12) * 4] == 12)
        // Window bits 8 (CINFO 0), the check bits made to fit.
        let small = [0x08, 0x1D] + stream.dropFirst(2)
        #expect(throws: PNGDecoder.DecodingError("the image data is damaged (invalid distance too far back)")) {
            try PNGDecoder.decode(HandmadePNG.file([header, HandmadePNG.chunk("IDAT", small), Self.end]))
        }
    }
}
