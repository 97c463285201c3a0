import CTurboJPEG
import CWebP
import DeclutterPNG
import Foundation

/// The formats an image comparison reads: PNG with Declutter's own decoder, JPEG with libjpeg-turbo and WebP with
/// libwebp, told apart by their first bytes, not their names.
///
/// Screenshot tools write all three (Playwright and Puppeteer JPEG, some pipelines WebP); a comparison decodes both
/// images of a pair with the same library, so the same bytes give the same pixels on every machine with that library.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    case png = "PNG"
    case jpeg = "JPEG"
    case webp = "WebP"

    /// The format whose signature starts `data`, or nil.
    public init?(signatureOf data: Data) {
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if data.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if data.starts(with: Array("RIFF".utf8)), data.dropFirst(8).starts(with: Array("WEBP".utf8)) {
            self = .webp
        } else {
            return nil
        }
    }

    /// The format a file name's extension names (any case), or nil; a path's folders are not looked at.
    public init?(fileName: String) {
        let name = fileName.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = name.lastIndex(of: ".") else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg
        case "webp": self = .webp
        default: return nil
        }
    }

    /// The format of `data` by its first bytes.
    ///
    /// - Throws: ``ImageReadError`` named `name` saying what is wrong, in the terms of the format the name says (PNG's
    ///   when it says none: a PNG's signature damaged is the likeliest cause).
    public static func of(_ data: Data, name: String) throws -> ImageFormat {
        if let format = ImageFormat(signatureOf: data) { return format }
        if data.isEmpty { throw ImageReadError(path: name, reason: "an empty file") }
        if let named = ImageFormat(fileName: name), named != .png {
            throw ImageReadError(path: name, reason: "not a \(named.rawValue) file (its first bytes are not one's)")
        }
        throw pngError(data, name, otherwise: "not a PNG file (the signature is missing)")
    }

    /// What PNG's decoder says is wrong at the start of `data`, or `otherwise` when it finds nothing.
    private static func pngError(_ data: Data, _ name: String, otherwise: String) -> ImageReadError {
        do {
            _ = try PNGDecoder.File(data)
        } catch let error as PNGDecoder.DecodingError {
            return ImageReadError(path: name, reason: error.description)
        } catch {}
        return ImageReadError(path: name, reason: otherwise)
    }

    /// The width and height `data` declares, once within `pixelLimit` (and above 0): checked before the buffer they
    /// size is allocated.
    ///
    /// - Throws: ``ImageReadError`` named `name` when the header cannot be read or the size is out of bounds.
    public func checkedSize(of data: Data, name: String, pixelLimit: Int) throws -> (width: Int, height: Int) {
        let (width, height) = try size(of: data, name: name)
        guard width > 0, height > 0 else {
            throw ImageReadError(path: name, reason: "\(width)×\(height) px: an image without pixels")
        }
        guard width <= pixelLimit / height else {
            throw ImageReadError(
                path: name, reason: "\(width)×\(height) px, more than the pixel limit (\(pixelLimit) pixels)")
        }
        return (width, height)
    }

    /// The width and height `data` declares, read from its header alone, before any pixel is decoded.
    ///
    /// - Throws: ``ImageReadError`` named `name` when the header cannot be read.
    public func size(of data: Data, name: String) throws -> (width: Int, height: Int) {
        switch self {
        case .png:
            guard let size = PNGImageSize(of: data) else {
                throw Self.pngError(data, name, otherwise: "not a PNG file (no IHDR chunk where the header belongs)")
            }
            return (size.width, size.height)
        case .jpeg:
            return try Self.withJPEGDecoder(name) { decoder in
                try data.withUnsafeBytes { bytes in
                    var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colours: Int32 = 0
                    guard let base = bytes.bindMemory(to: UInt8.self).baseAddress,
                        tjDecompressHeader3(decoder, base, UInt(bytes.count), &width, &height, &subsampling, &colours)
                            == 0
                    else { throw Self.jpegError(decoder, name) }
                    // TurboJPEG converts CMYK to nothing else; screenshots are never CMYK.
                    guard colours != Int32(TJCS_CMYK.rawValue), colours != Int32(TJCS_YCCK.rawValue) else {
                        throw ImageReadError(
                            path: name,
                            reason: "a CMYK JPEG, which is not read (screenshots are RGB); convert it to RGB")
                    }
                    return (Int(width), Int(height))
                }
            }
        case .webp:
            var features = WebPBitstreamFeatures()
            let status = data.withUnsafeBytes { bytes in
                WebPGetFeatures(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, &features)
            }
            guard status == VP8_STATUS_OK else { throw Self.webpError(status, name) }
            guard features.has_animation == 0 else {
                throw ImageReadError(path: name, reason: "an animated WebP: only still images are compared")
            }
            return (Int(features.width), Int(features.height))
        }
    }

    /// Decodes `data`, which must be of this format, to straight-alpha RGBA (JPEG's pixels opaque), once its
    /// declared size is within `pixelLimit`.
    ///
    /// - Throws: ``ImageReadError`` named `name` when the data is damaged or cut short (for JPEG, what libjpeg-turbo
    ///   only warns about too: a screenshot cut short must not pass), in a form the library cannot convert to RGBA, or
    ///   too large.
    public func decode(_ data: Data, name: String, pixelLimit: Int) throws -> RGBAImage {
        let (width, height) = try checkedSize(of: data, name: name, pixelLimit: pixelLimit)
        switch self {
        case .png:
            return try RGBAImage(png: data, name: name)
        case .jpeg:
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            try Self.withJPEGDecoder(name) { decoder in
                try data.withUnsafeBytes { bytes in
                    let source = bytes.bindMemory(to: UInt8.self).baseAddress
                    let status = pixels.withUnsafeMutableBufferPointer { target in
                        // The library's defaults (accurate DCT, smooth upsampling), as Pillow and browsers decode.
                        tjDecompress2(
                            decoder, source, UInt(bytes.count), target.baseAddress, Int32(width), 0, Int32(height),
                            Int32(TJPF_RGBA.rawValue), TJFLAG_STOPONWARNING)
                    }
                    guard status == 0 else { throw Self.jpegError(decoder, name) }
                }
            }
            return RGBAImage(width: width, height: height, pixels: pixels)
        case .webp:
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            var config = WebPDecoderConfig()
            guard WebPInitDecoderConfig(&config) != 0 else {
                throw ImageReadError(path: name, reason: "libwebp is not the version Declutter was built with")
            }
            let status = data.withUnsafeBytes { bytes in
                pixels.withUnsafeMutableBufferPointer { target in
                    // Straight (not premultiplied) RGBA into the buffer above, as PNG stores it.
                    config.output.colorspace = MODE_RGBA
                    config.output.is_external_memory = 1
                    config.output.u.RGBA.rgba = target.baseAddress
                    config.output.u.RGBA.stride = Int32(width * 4)
                    config.output.u.RGBA.size = target.count
                    return WebPDecode(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, &config)
                }
            }
            guard status == VP8_STATUS_OK else { throw Self.webpError(status, name) }
            return RGBAImage(width: width, height: height, pixels: pixels)
        }
    }

    /// Runs `body` with a TurboJPEG decompressor, destroyed after.
    private static func withJPEGDecoder<T>(_ name: String, _ body: (tjhandle) throws -> T) throws -> T {
        guard let decoder = tjInitDecompress() else {
            throw ImageReadError(path: name, reason: "libjpeg-turbo could not start a decoder")
        }
        defer { tjDestroy(decoder) }
        return try body(decoder)
    }

    /// The decoder's last message as the error of `name`.
    private static func jpegError(_ decoder: tjhandle, _ name: String) -> ImageReadError {
        let message = tjGetErrorStr2(decoder).map { String(cString: $0) } ?? "unknown error"
        // Damage (data cut short, a bad marker) and what the library does not convert (CMYK to RGB) alike.
        return ImageReadError(path: name, reason: "JPEG data libjpeg-turbo cannot decode: \(message)")
    }

    /// libwebp's status as the error of `name`.
    private static func webpError(_ status: VP8StatusCode, _ name: String) -> ImageReadError {
        let reason =
            switch status {
            case VP8_STATUS_NOT_ENOUGH_DATA: "WebP data cut short"
            case VP8_STATUS_UNSUPPORTED_FEATURE: "a WebP feature libwebp does not read"
            default: "damaged WebP data (libwebp status \(status.rawValue))"
            }
        return ImageReadError(path: name, reason: reason)
    }
}
