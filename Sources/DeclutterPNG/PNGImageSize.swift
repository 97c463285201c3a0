import Foundation

/// The width and height a PNG file declares in its header (IHDR), read without decoding anything, so that limits
/// are checked before any pixel is allocated.
public struct PNGImageSize: Sendable, Hashable {
    /// Pixels across.
    public var width: Int
    /// Pixels down.
    public var height: Int

    /// The size in `data`'s header, or nil when `data` does not start with a PNG signature and an IHDR chunk.
    public init?(of data: Data) {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, bytes.starts(with: signature), bytes[12..<16].elementsEqual("IHDR".utf8) else {
            return nil
        }
        width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
        height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
    }

    /// `W×H`.
    public var text: String { "\(width)×\(height)" }
}
