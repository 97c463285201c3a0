import DeclutterPNG
import Foundation

extension PNGEncoder {
    /// The PNG bytes of an image surface's premultiplied pixels.
    ///
    /// - Throws: ``RenderError/encoding(_:)`` for a surface without pixels (a vector surface) or a zlib failure.
    public func encode(_ surface: Surface) throws -> Data {
        let width = surface.pixelWidth, height = surface.pixelHeight
        return try surface.withPixels { pixels, stride in
            guard pixels.baseAddress != nil, width > 0, height > 0 else {
                throw RenderError.encoding("the surface has no pixels")
            }
            do {
                return try encode(
                    pixels: UnsafeRawBufferPointer(pixels), width: width, height: height, rowBytes: stride,
                    layout: .premultipliedARGB32)
            } catch let error as EncodingError {
                throw RenderError.encoding(error.reason)
            }
        }
    }
}
