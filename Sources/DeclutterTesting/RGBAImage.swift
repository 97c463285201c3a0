import DeclutterRender
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
    /// - Throws: ``RenderError/unreadableImage(path:reason:)`` when the bytes are not a PNG or are damaged.
    public init(png data: Data, name: String = "PNG data") throws {
        do {
            let image = try PNGDecoder.decode(data)
            self.init(width: image.width, height: image.height, pixels: image.pixels)
        } catch let error as PNGDecoder.DecodingError {
            throw RenderError.unreadableImage(path: name, reason: error.description)
        }
    }

    /// Reads a PNG file.
    public init(contentsOf url: URL) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw RenderError.unreadableImage(path: url.relativePath, reason: "no such file or not readable")
        }
        try self.init(png: data, name: url.relativePath)
    }

    /// Copies an image surface's pixels, un-premultiplying them.
    public init(surface: Surface) {
        self.init(width: surface.pixelWidth, height: surface.pixelHeight, pixels: surface.straightRGBA())
    }

    /// The PNG encoding of the image.
    public func pngData() throws -> Data {
        let surface = try Surface(imageWidth: width, height: height)
        surface.withMutablePixels { target, stride in
            for y in 0..<height {
                for x in 0..<width {
                    let offset = (y * width + x) * 4
                    let alpha = UInt32(pixels[offset + 3])
                    func premultiplied(_ value: UInt8) -> UInt32 { (UInt32(value) * alpha + 127) / 255 }
                    let word = alpha << 24 | premultiplied(pixels[offset]) << 16 | premultiplied(pixels[offset + 1]) << 8
                        | premultiplied(pixels[offset + 2])
                    UnsafeMutableRawPointer(target.baseAddress!.advanced(by: y * stride + x * 4))
                        .storeBytes(of: word, as: UInt32.self)
                }
            }
        }
        return try PNGEncoder().encode(surface)
    }

    /// The RGBA bytes of the pixel at (x, y).
    public subscript(x: Int, y: Int) -> [UInt8] {
        let offset = (y * width + x) * 4
        return Array(pixels[offset..<offset + 4])
    }
}
