import DeclutterTesting
import Foundation
import Testing

@testable import DeclutterPNG

/// The chunk order of the PNG specification, read as libpng 1.6 reads it (`scripts/png-vs-libpng` compares the two on
/// thousands of damaged files): what libpng refuses is refused with a message naming what was expected, what it only
/// warns about is read as it reads it.
@Suite struct PNGChunkRulesTests {
    /// A 2×1 RGB image, pixels (1, 2, 3) and (4, 5, 6).
    static let rgbHeader = HandmadePNG.header(width: 2, height: 1, colorType: 2, bitDepth: 8)
    static let rgbData = HandmadePNG.chunk("IDAT", HandmadePNG.zlibStored([0, 1, 2, 3, 4, 5, 6]))
    static let rgbPixels: [UInt8] = [1, 2, 3, 255, 4, 5, 6, 255]
    static let end = HandmadePNG.chunk("IEND", [])

    /// A 7×5 indexed image of 35 pixels naming entries 0…3 of a four-colour palette.
    static let indexedHeader = HandmadePNG.header(width: 7, height: 5, colorType: 3, bitDepth: 8)
    static let indexedData = HandmadePNG.chunk(
        "IDAT", HandmadePNG.zlibStored((0..<5).flatMap { y in [0] + (0..<7).map { x in UInt8((x + y) % 4) } }))
    static let palette = HandmadePNG.chunk("PLTE", [255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9])

    func message(_ chunks: [[UInt8]]) -> String {
        do {
            _ = try PNGDecoder.decode(HandmadePNG.file(chunks))
            return "read"
        } catch { return "\(error)" }
    }

    func pixels(_ chunks: [[UInt8]]) throws -> [UInt8] { try PNGDecoder.decode(HandmadePNG.file(chunks)).pixels }

    @Test func ihdrComesFirstAndOnce() throws {
        #expect(
            message([Self.rgbData, Self.rgbHeader, Self.end])
                == "the file does not start with IHDR: its first chunk is IDAT")
        #expect(
            message([Self.rgbHeader, Self.rgbHeader, Self.rgbData, Self.end])
                == "a second IHDR chunk: IHDR comes once, first")
        #expect(
            message([Self.rgbHeader, Self.rgbData, Self.rgbHeader, Self.end])
                == "a second IHDR chunk: IHDR comes once, first")
        #expect(try pixels([Self.rgbHeader, Self.rgbData, Self.end]) == Self.rgbPixels)
    }

    /// Deliberately stricter than libpng, which skips an ancillary chunk it does not know before IHDR: the
    /// specification puts IHDR first, and nothing a reader needs comes before it.
    @Test func anUnknownAncillaryChunkBeforeIHDRIsRefusedWhereLibPNGSkipsIt() {
        let privateChunk = HandmadePNG.chunk("prVt", [1, 2, 3])
        #expect(
            message([privateChunk, Self.rgbHeader, Self.rgbData, Self.end])
                == "the file does not start with IHDR: its first chunk is prVt")
        #expect(
            message([HandmadePNG.chunk("gAMA", [0, 0, 0xB1, 0x8F]), Self.rgbHeader, Self.rgbData, Self.end])
                == "the file does not start with IHDR: its first chunk is gAMA")
    }

    /// The report's case: a tRNS before PLTE made all 35 pixels transparent; libpng ignores it and so do we.
    @Test func tRNSBeforePLTEIsIgnored() throws {
        let transparency = HandmadePNG.chunk("tRNS", [0, 0, 0, 0])
        let early = try pixels([Self.indexedHeader, transparency, Self.palette, Self.indexedData, Self.end])
        #expect(early.count == 35 * 4)
        #expect(stride(from: 3, to: early.count, by: 4).allSatisfy { early[$0] == 255 })
        #expect(Array(early.prefix(16)) == [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 9, 9, 9, 255])
        // After PLTE it counts.
        let inPlace = try pixels([Self.indexedHeader, Self.palette, transparency, Self.indexedData, Self.end])
        #expect(stride(from: 3, to: inPlace.count, by: 4).allSatisfy { inPlace[$0] == 0 })
    }

    /// A tRNS after the image data, a second one, one with a bad CRC and one before a suggested palette are ignored;
    /// the first good one in place counts.
    @Test func misplacedOrDamagedTRNSIsIgnored() throws {
        let key = HandmadePNG.chunk("tRNS", [0, 1, 0, 2, 0, 3])
        let other = HandmadePNG.chunk("tRNS", [0, 4, 0, 5, 0, 6])
        var damaged = key
        damaged[damaged.count - 1] ^= 0xFF
        let keyed: [UInt8] = [1, 2, 3, 0, 4, 5, 6, 255]
        #expect(try pixels([Self.rgbHeader, key, Self.rgbData, Self.end]) == keyed)
        #expect(try pixels([Self.rgbHeader, Self.rgbData, key, Self.end]) == Self.rgbPixels)
        #expect(try pixels([Self.rgbHeader, key, other, Self.rgbData, Self.end]) == keyed)
        #expect(try pixels([Self.rgbHeader, damaged, Self.rgbData, Self.end]) == Self.rgbPixels)
        #expect(try pixels([Self.rgbHeader, damaged, other, Self.rgbData, Self.end]) == [1, 2, 3, 255, 4, 5, 6, 0])
        #expect(
            try pixels([Self.rgbHeader, key, HandmadePNG.chunk("PLTE", [7, 7, 7]), Self.rgbData, Self.end])
                == Self.rgbPixels)
    }

    @Test func plteComesOnceBeforeTheImageData() throws {
        #expect(
            message([Self.indexedHeader, Self.palette, Self.palette, Self.indexedData, Self.end])
                == "a second PLTE chunk: a PNG holds at most one palette")
        #expect(
            message([Self.indexedHeader, Self.indexedData, Self.palette, Self.end])
                == "the palette (PLTE) of an indexed image is missing before the image data (IDAT)")
        #expect(
            message([Self.indexedHeader, HandmadePNG.chunk("PLTE", [1, 2, 3, 4]), Self.indexedData, Self.end])
                == "the PLTE chunk holds 4 bytes, not 3 to 768 in threes")
        #expect(
            message([Self.indexedHeader, HandmadePNG.chunk("PLTE", []), Self.indexedData, Self.end])
                == "the PLTE chunk is empty: a palette holds 1 to 256 colours")
        // A suggested palette of an RGB image: one of the wrong length or after the image data is ignored, as libpng
        // ignores it, but an empty one is refused as libpng refuses it.
        #expect(
            try pixels([Self.rgbHeader, HandmadePNG.chunk("PLTE", [1, 2, 3, 4]), Self.rgbData, Self.end])
                == Self.rgbPixels)
        #expect(try pixels([Self.rgbHeader, Self.rgbData, Self.palette, Self.end]) == Self.rgbPixels)
        #expect(
            message([Self.rgbHeader, HandmadePNG.chunk("PLTE", []), Self.rgbData, Self.end])
                == "the PLTE chunk is empty: a palette holds 1 to 256 colours")
    }

    /// libpng reads one run of IDAT chunks: another after a chunk between is ignored, and cannot finish the first.
    @Test func theImageDataIsOneRunOfIDATChunks() throws {
        let text = HandmadePNG.chunk("tEXt", Array("Comment\0between".utf8))
        #expect(
            try pixels([Self.rgbHeader, Self.rgbData, text, HandmadePNG.chunk("IDAT", [1, 2, 3]), Self.end])
                == Self.rgbPixels)
        let stream = HandmadePNG.zlibStored([0, 1, 2, 3, 4, 5, 6])
        let first = HandmadePNG.chunk("IDAT", Array(stream.prefix(6))),
            second = HandmadePNG.chunk("IDAT", Array(stream.dropFirst(6)))
        #expect(try pixels([Self.rgbHeader, first, second, Self.end]) == Self.rgbPixels)
        #expect(message([Self.rgbHeader, first, text, second, Self.end]) == "the image data is too short")
    }

    @Test func iendComesLast() throws {
        let file = HandmadePNG.file([Self.rgbHeader, Self.rgbData])
        #expect(
            message([Self.rgbHeader, Self.rgbData])
                == "the IEND chunk is missing: the file ends after \(file.count) bytes")
        #expect(
            message([Self.rgbHeader, Self.end, Self.rgbData]) == "the IEND chunk comes before the image data (IDAT)")
        // What follows IEND is not read.
        #expect(try pixels([Self.rgbHeader, Self.rgbData, Self.end, [0xFF, 0x00, 0x12]]) == Self.rgbPixels)
    }

    /// Unknown critical chunks and critical chunks with a bad CRC are refused; unknown ancillary chunks and ancillary
    /// chunks with a bad CRC are skipped.
    @Test func criticalChunksMustBeKnownAndIntact() throws {
        #expect(
            message([Self.rgbHeader, HandmadePNG.chunk("ABCD", [1]), Self.rgbData, Self.end])
                == "the ABCD chunk is critical and unknown to this decoder")
        #expect(
            message([Self.rgbHeader, Self.rgbData, HandmadePNG.chunk("IEnD", []), Self.end])
                == "the IEnD chunk is critical and unknown to this decoder")
        var damagedData = Self.rgbData
        damagedData[damagedData.count - 1] ^= 1
        #expect(message([Self.rgbHeader, damagedData, Self.end]) == "the IDAT chunk is damaged (CRC mismatch)")
        var damagedText = HandmadePNG.chunk("tEXt", Array("Title\0x".utf8))
        damagedText[damagedText.count - 1] ^= 1
        #expect(
            try pixels([Self.rgbHeader, damagedText, HandmadePNG.chunk("prVt", [0]), Self.rgbData, Self.end])
                == Self.rgbPixels)
    }

    /// A chunk type is four ASCII letters; any other bytes are quoted escaped, so that a file cannot drive the
    /// terminal.
    @Test func chunkTypesThatAreNotLettersAreRefusedAndQuotedEscaped() {
        #expect(
            message([Self.rgbHeader, HandmadePNG.chunk("\u{1B}[2J", []), Self.rgbData, Self.end])
                == "the chunk type \\u{1B}[2J is not four ASCII letters")
        #expect(
            message([Self.rgbHeader, HandmadePNG.chunk([0xC3, 0xA9, 0x78, 0x78], []), Self.rgbData, Self.end])
                == "the chunk type \\u{C3}\\u{A9}xx is not four ASCII letters")
        #expect(message([HandmadePNG.chunk("ID\u{7}T", [])]) == "the chunk type ID\\u{7}T is not four ASCII letters")
    }

    /// libpng draws an index past the palette opaque black (with a warning); so do we, in both layouts.
    @Test func indicesPastThePaletteAreOpaqueBlack() throws {
        let header = HandmadePNG.header(width: 4, height: 1, colorType: 3, bitDepth: 2)
        let data = HandmadePNG.chunk("IDAT", HandmadePNG.zlibStored([0, 0b00_01_10_11]))
        let twoColours = HandmadePNG.chunk("PLTE", [255, 0, 0, 0, 255, 0])
        #expect(
            try pixels([header, twoColours, data, Self.end]) == [
                255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255,
            ])
        let transparency = HandmadePNG.chunk("tRNS", [10, 20])
        let file = try PNGDecoder.File(HandmadePNG.file([header, twoColours, transparency, data, Self.end]))
        var words = [UInt32](repeating: 0, count: 4)
        try words.withUnsafeMutableBytes { try file.decode(into: $0, rowBytes: 16, layout: .premultipliedARGB32) }
        #expect(words == [0x0A0A_0000, 0x1400_1400, 0xFF00_0000, 0xFF00_0000])
    }

    /// The specification has decoders use only the bits of a tRNS sample that the bit depth holds, as libpng does.
    @Test func transparentColoursKeepOnlyTheBitsOfTheDepth() throws {
        let grey = HandmadePNG.header(width: 4, height: 1, colorType: 0, bitDepth: 2)
        let greyData = HandmadePNG.chunk("IDAT", HandmadePNG.zlibStored([0, 0b00_01_10_11]))
        #expect(
            try pixels([grey, HandmadePNG.chunk("tRNS", [0, 6]), greyData, Self.end])
                == [0, 0, 0, 255, 85, 85, 85, 255, 170, 170, 170, 0, 255, 255, 255, 255])
        #expect(
            try pixels([Self.rgbHeader, HandmadePNG.chunk("tRNS", [1, 1, 0, 2, 0, 3]), Self.rgbData, Self.end])
                == [1, 2, 3, 0, 4, 5, 6, 255])
    }
}
