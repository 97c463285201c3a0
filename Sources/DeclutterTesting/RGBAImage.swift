import DeclutterPNG
import Foundation

/// An image as straight-alpha RGBA bytes, row by row: what image comparison works on.
public struct RGBAImage: Sendable, Hashable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// `width · height · 4` bytes: red, green, blue, alpha per pixel.
    public var pixels: [UInt8]

    /// Creates an image from its bytes; `pixels` must hold `width · height · 4` bytes.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4, "RGBAImage needs width × height × 4 bytes")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Decodes PNG bytes to their stored, straight-alpha values; `name` identifies them in errors.
    ///
    /// - Throws: ``ImageReadError`` when the bytes are not a PNG or are damaged.
    public init(png data: Data, name: String = "PNG data") throws {
        do {
            let image = try PNGDecoder.decode(data)
            self.init(width: image.width, height: image.height, pixels: image.pixels)
        } catch let error as PNGDecoder.DecodingError {
            throw ImageReadError(path: name, reason: error.description)
        }
    }

    /// Decodes PNG, JPEG or WebP bytes (``ImageFormat``, told by their first bytes) to straight-alpha RGBA, once
    /// their declared size is within `pixelLimit`; `name` identifies them in errors.
    ///
    /// - Throws: ``ImageReadError`` when the bytes are none of these formats, are damaged or too large.
    public init(encoded data: Data, name: String = "image data", pixelLimit: Int = PNGDecoder.maximumPixels) throws {
        self = try ImageFormat.of(data, name: name).decode(data, name: name, pixelLimit: pixelLimit)
    }

    /// Reads a PNG, JPEG or WebP file.
    ///
    /// - Throws: ``ImageReadError`` when the file is missing, none of these formats or damaged.
    public init(contentsOf url: URL) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ImageReadError(path: url.relativePath, reason: "no such file or not readable")
        }
        try self.init(encoded: data, name: url.relativePath)
    }

    /// Copies premultiplied ARGB32 pixels (a cairo image surface's, rows `rowBytes` apart), un-premultiplying them
    /// with the rounding of cairo's PNG writer.
    ///
    /// ```swift
    /// let image = surface.withPixels { RGBAImage(premultipliedARGB32: UnsafeRawBufferPointer($0), width: 40, height:
    /// 40, rowBytes: $1) }
    /// ```
    /// `pixels` must hold `(height - 1) · rowBytes + width · 4` bytes.
    public init(premultipliedARGB32 pixels: UnsafeRawBufferPointer, width: Int, height: Int, rowBytes: Int) {
        self.init(
            width: width, height: height,
            pixels: PixelLayout.straightRGBA(
                fromPremultiplied: pixels, width: width, height: height, rowBytes: rowBytes))
    }

    /// The PNG encoding of the image, its straight pixels written as they are.
    public func pngData() throws -> Data {
        try PNGEncoder().encode(rgba: pixels, width: width, height: height)
    }

    /// The RGBA bytes of the pixel at (x, y).
    public subscript(x: Int, y: Int) -> [UInt8] {
        let offset = (y * width + x) * 4
        return Array(pixels[offset..<offset + 4])
    }
}
