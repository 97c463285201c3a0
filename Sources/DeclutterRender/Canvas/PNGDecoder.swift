import CCairo
import Foundation

/// Decodes PNG files to straight (not premultiplied) 8-bit RGBA, as browsers and pngjs read them.
///
/// cairo's loader premultiplies alpha, which loses the exact colour of semi-transparent pixels; image
/// comparison needs the stored values. Every colour type and bit depth of the PNG specification is read,
/// with palette and `tRNS` transparency and Adam7 interlacing; 16-bit samples keep their high byte.
public enum PNGDecoder {
    /// A decoded image: `width · height · 4` bytes, red, green, blue, alpha per pixel, row by row.
    public struct Image: Sendable, Hashable {
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int
        /// The RGBA bytes.
        public var pixels: [UInt8]
    }

    /// Why bytes could not be decoded.
    public struct DecodingError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What was wrong.
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// The largest width or height accepted, checked before anything is allocated.
    public static let maximumSide = 32_768
    /// The most pixels accepted (16,384²: 1 GiB of RGBA), checked before anything is allocated.
    public static let maximumPixels = 16_384 * 16_384

    /// Decodes PNG bytes.
    ///
    /// - Throws: ``DecodingError`` naming what is not a PNG or is damaged.
    public static func decode(_ data: Data) throws -> Image {
        let bytes = [UInt8](data)
        guard bytes.count >= 8, bytes[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw DecodingError("not a PNG file (the signature is missing)")
        }
        var header: Header?
        var palette: [UInt8] = [], transparency: [UInt8] = []
        var compressed: [UInt8] = []
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(readUInt32(bytes, offset))
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            guard length <= bytes.count - offset - 12 else { throw DecodingError("the \(type) chunk runs past the end of the file") }
            let body = bytes[offset + 8..<offset + 8 + length]
            let stored = readUInt32(bytes, offset + 8 + length)
            let computed = bytes[offset + 4..<offset + 8 + length].withUnsafeBufferPointer {
                UInt32(truncatingIfNeeded: crc32(0, $0.baseAddress, UInt32($0.count)))
            }
            guard stored == computed else { throw DecodingError("the \(type) chunk is damaged (CRC mismatch)") }
            switch type {
            case "IHDR": header = try Header(Array(body))
            case "PLTE": palette = Array(body)
            case "tRNS": transparency = Array(body)
            case "IDAT": compressed.append(contentsOf: body)
            case "IEND": offset = bytes.count; continue
            default: break
            }
            offset += 12 + length
        }
        guard offset >= bytes.count else { throw DecodingError("the file is truncated inside a chunk") }
        guard let header else { throw DecodingError("the IHDR chunk is missing") }
        guard !compressed.isEmpty else { throw DecodingError("the image data (IDAT) is missing") }
        if header.colorType == 3 && palette.isEmpty { throw DecodingError("the palette (PLTE) of an indexed image is missing") }
        let raw = try inflate(compressed, expected: header.rawByteCount)
        return try header.unfilterAndExpand(raw, palette: palette, transparency: transparency)
    }

    /// The fields of IHDR that decoding needs.
    struct Header {
        let width: Int, height: Int, bitDepth: Int, colorType: Int, interlaced: Bool
        /// Samples per pixel.
        let channels: Int

        init(_ body: [UInt8]) throws {
            guard body.count == 13 else { throw DecodingError("the IHDR chunk has the wrong length") }
            width = Int(readUInt32(body, 0))
            height = Int(readUInt32(body, 4))
            bitDepth = Int(body[8])
            colorType = Int(body[9])
            interlaced = body[12] == 1
            guard (1...maximumSide).contains(width), (1...maximumSide).contains(height) else {
                throw DecodingError("the image size \(width)×\(height) is outside 1…\(maximumSide) px per side")
            }
            guard width * height <= maximumPixels else {
                throw DecodingError("the image size \(width)×\(height) exceeds \(maximumPixels) pixels")
            }
            let depths: [Int: [Int]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
            guard let allowed = depths[colorType], allowed.contains(bitDepth) else {
                throw DecodingError("colour type \(colorType) with bit depth \(bitDepth) is not valid PNG")
            }
            guard body[10] == 0, body[11] == 0, body[12] <= 1 else { throw DecodingError("unknown compression, filter or interlace method") }
            channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType] ?? 1
        }
        /// Bytes per complete pixel for filtering (at least 1).
        var filterStride: Int { max(1, channels * bitDepth / 8) }
        /// Bytes in one scanline of a pass `passWidth` wide, without the filter byte.
        func rowBytes(_ passWidth: Int) -> Int { (passWidth * channels * bitDepth + 7) / 8 }

        /// The passes: the whole image, or Adam7's seven sub-images (start x, start y, step x, step y).
        var passes: [(x: Int, y: Int, dx: Int, dy: Int)] {
            interlaced ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
                : [(0, 0, 1, 1)]
        }

        func passSize(_ pass: (x: Int, y: Int, dx: Int, dy: Int)) -> (width: Int, height: Int) {
            ((width - pass.x + pass.dx - 1) / pass.dx, (height - pass.y + pass.dy - 1) / pass.dy)
        }

        /// The size of the inflated data: every pass's scanlines with their filter bytes.
        var rawByteCount: Int {
            passes.reduce(0) { total, pass in
                let size = passSize(pass)
                return size.width == 0 || size.height == 0 ? total : total + size.height * (rowBytes(size.width) + 1)
            }
        }

        /// Reverses the row filters of each pass and converts every pixel to RGBA.
        func unfilterAndExpand(_ raw: [UInt8], palette: [UInt8], transparency: [UInt8]) throws -> Image {
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            var offset = 0
            for pass in passes {
                let size = passSize(pass)
                guard size.width > 0 && size.height > 0 else { continue }
                let rowLength = rowBytes(size.width)
                var previous = [UInt8](repeating: 0, count: rowLength), current = previous
                for row in 0..<size.height {
                    let filter = raw[offset]
                    for index in 0..<rowLength { current[index] = raw[offset + 1 + index] }
                    offset += rowLength + 1
                    try Self.unfilter(&current, previous: previous, type: filter, stride: filterStride)
                    let y = pass.y + row * pass.dy
                    for column in 0..<size.width {
                        let x = pass.x + column * pass.dx
                        let target = (y * width + x) * 4
                        try writePixel(current, column: column, into: &pixels, at: target, palette: palette, transparency: transparency)
                    }
                    swap(&previous, &current)
                }
            }
            return Image(width: width, height: height, pixels: pixels)
        }

        /// Undoes one row's filter in place.
        static func unfilter(_ row: inout [UInt8], previous: [UInt8], type: UInt8, stride: Int) throws {
            switch type {
            case 0: break
            case 1: for index in stride..<row.count { row[index] &+= row[index - stride] }
            case 2: for index in row.indices { row[index] &+= previous[index] }
            case 3:
                for index in row.indices {
                    let left = index >= stride ? Int(row[index - stride]) : 0
                    row[index] &+= UInt8((left + Int(previous[index])) / 2)
                }
            case 4:
                for index in row.indices {
                    let left = index >= stride ? row[index - stride] : 0
                    let upperLeft = index >= stride ? previous[index - stride] : 0
                    row[index] &+= PNGEncoder.paeth(left, previous[index], upperLeft)
                }
            default: throw DecodingError("unknown row filter type \(type)")
            }
        }

        /// The sample `index` of a row at this bit depth (16-bit samples give their high byte, lower depths are scaled).
        func sample(_ row: [UInt8], _ index: Int, scaled: Bool) -> UInt8 {
            switch bitDepth {
            case 16: return row[index * 2]
            case 8: return row[index]
            default:
                let bit = index * bitDepth
                let value = (row[bit / 8] >> UInt8(8 - bitDepth - bit % 8)) & UInt8((1 << bitDepth) - 1)
                return scaled ? UInt8(Int(value) * 255 / ((1 << bitDepth) - 1)) : value
            }
        }

        /// The full-precision sample, for comparing against `tRNS` colours.
        func rawSample(_ row: [UInt8], _ index: Int) -> Int {
            bitDepth == 16 ? Int(row[index * 2]) << 8 | Int(row[index * 2 + 1]) : Int(sample(row, index, scaled: false))
        }

        func writePixel(_ row: [UInt8], column: Int, into pixels: inout [UInt8], at target: Int,
                        palette: [UInt8], transparency: [UInt8]) throws {
            let base = column * channels
            switch colorType {
            case 0:
                let grey = sample(row, base, scaled: true)
                let transparent = transparency.count >= 2 && rawSample(row, base) == Int(readUInt16(transparency, 0))
                pixels[target] = grey; pixels[target + 1] = grey; pixels[target + 2] = grey
                pixels[target + 3] = transparent ? 0 : 255
            case 2:
                for channel in 0..<3 { pixels[target + channel] = sample(row, base + channel, scaled: true) }
                let transparent = transparency.count >= 6 && (0..<3).allSatisfy {
                    rawSample(row, base + $0) == Int(readUInt16(transparency, $0 * 2))
                }
                pixels[target + 3] = transparent ? 0 : 255
            case 3:
                let index = Int(sample(row, base, scaled: false))
                guard index * 3 + 2 < palette.count else { throw DecodingError("a pixel names palette entry \(index), which does not exist") }
                pixels[target] = palette[index * 3]; pixels[target + 1] = palette[index * 3 + 1]; pixels[target + 2] = palette[index * 3 + 2]
                pixels[target + 3] = index < transparency.count ? transparency[index] : 255
            case 4:
                let grey = sample(row, base, scaled: true)
                pixels[target] = grey; pixels[target + 1] = grey; pixels[target + 2] = grey
                pixels[target + 3] = sample(row, base + 1, scaled: true)
            default:
                for channel in 0..<4 { pixels[target + channel] = sample(row, base + channel, scaled: true) }
            }
        }
    }

    /// Inflates a zlib stream that must hold exactly `expected` bytes.
    static func inflate(_ compressed: [UInt8], expected: Int) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: expected)
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw DecodingError("zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var compressed = compressed
        let status = compressed.withUnsafeMutableBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = input.baseAddress
                stream.avail_in = UInt32(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = UInt32(out.count)
                return CCairo.inflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END || (status == Z_BUF_ERROR && stream.avail_out == 0) || (status == Z_OK && stream.avail_out == 0),
              stream.avail_out == 0 else {
            throw DecodingError("the image data is damaged or too short (zlib status \(status))")
        }
        return output
    }

    static func readUInt32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    static func readUInt16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }
}
