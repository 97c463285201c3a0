import DeclutterPNG
import Foundation

/// A premultiplied ARGB32 image drawn in code as cairo holds a drawn one: flat fills, anti-aliased discs and strokes
/// composited over what is there, so literals, runs from the left and runs from above all occur.
struct TestImage {
    let width: Int
    let height: Int
    /// Native-endian `alpha << 24 | red << 16 | green << 8 | blue`, premultiplied, `width` to a row.
    var words: [UInt32]

    /// A transparent image.
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        words = [UInt32](repeating: 0, count: width * height)
    }

    /// Covers every pixel with an opaque colour (components 0…1).
    mutating func paint(red: Double, green: Double, blue: Double) {
        words = [UInt32](repeating: Self.word(red, green, blue, alpha: 1), count: width * height)
    }

    /// A disc, its edge pixels covered in proportion to how far inside they lie.
    mutating func disc(
        x centerX: Double, y centerY: Double, radius: Double, red: Double, green: Double, blue: Double, alpha: Double
    ) {
        draw(red, green, blue, alpha) { x, y in
            radius + 0.5 - ((x - centerX) * (x - centerX) + (y - centerY) * (y - centerY)).squareRoot()
        }
    }

    /// A straight stroke `width` wide from one point to another, with round ends.
    mutating func line(
        from start: (x: Double, y: Double), to end: (x: Double, y: Double), width lineWidth: Double,
        red: Double, green: Double, blue: Double, alpha: Double
    ) {
        let dx = end.x - start.x, dy = end.y - start.y, length = dx * dx + dy * dy
        draw(red, green, blue, alpha) { x, y in
            let t = length == 0 ? 0 : max(0, min(1, ((x - start.x) * dx + (y - start.y) * dy) / length))
            let ex = x - start.x - t * dx, ey = y - start.y - t * dy
            return lineWidth / 2 + 0.5 - (ex * ex + ey * ey).squareRoot()
        }
    }

    /// Composites `icon` over the image with its top-left corner at whole pixel (x, y).
    mutating func place(_ icon: TestImage, x left: Int, y top: Int) {
        for y in 0..<icon.height where (0..<height).contains(top + y) {
            for x in 0..<icon.width where (0..<width).contains(left + x) {
                let index = (top + y) * width + left + x
                words[index] = Self.over(icon.words[y * icon.width + x], words[index])
            }
        }
    }

    /// Calls `body` with the pixels' bytes, `width · 4` a row.
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try words.withUnsafeBytes(body)
    }

    /// The image as straight RGBA, un-premultiplied as cairo's PNG writer does.
    var straightRGBA: [UInt8] {
        withBytes { PixelLayout.straightRGBA(fromPremultiplied: $0, width: width, height: height, rowBytes: width * 4) }
    }

    /// The PNG bytes `encoder` writes.
    func png(_ encoder: PNGEncoder = PNGEncoder()) throws -> Data {
        try withBytes {
            try encoder.encode(
                pixels: $0, width: width, height: height, rowBytes: width * 4, layout: .premultipliedARGB32)
        }
    }

    /// An image with flat areas, gradients and noise: 60 seeded discs of random colours and alphas.
    static func busy(width: Int, height: Int, opaque: Bool = false, seed start: UInt64 = 42) -> TestImage {
        var image = TestImage(width: width, height: height)
        if opaque { image.paint(red: 1, green: 1, blue: 1) }
        var seed = start
        func random() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53)
        }
        for _ in 0..<60 {
            image.disc(
                x: random() * Double(width), y: random() * Double(height), radius: 2 + random() * 40,
                red: random(), green: random(), blue: random(), alpha: 0.2 + random() * 0.8)
        }
        return image
    }

    /// Pixels within reach of a shape: `inside(x, y)` at a pixel's centre, over 1 fully covered, 0…1 partly.
    private mutating func draw(
        _ red: Double, _ green: Double, _ blue: Double, _ alpha: Double, inside: (Double, Double) -> Double
    ) {
        for y in 0..<height {
            for x in 0..<width {
                let coverage = min(1, inside(Double(x) + 0.5, Double(y) + 0.5))
                guard coverage > 0 else { continue }
                let index = y * width + x
                words[index] = Self.over(Self.word(red, green, blue, alpha: alpha * coverage), words[index])
            }
        }
    }

    /// A colour as a premultiplied word; every channel at most alpha.
    static func word(_ red: Double, _ green: Double, _ blue: Double, alpha: Double) -> UInt32 {
        let a = UInt32((max(0, min(1, alpha)) * 255).rounded())
        func channel(_ value: Double) -> UInt32 { (UInt32((max(0, min(1, value)) * 255).rounded()) * a + 127) / 255 }
        return a << 24 | channel(red) << 16 | channel(green) << 8 | channel(blue)
    }

    /// Porter-Duff over of premultiplied words.
    static func over(_ source: UInt32, _ target: UInt32) -> UInt32 {
        let keep = 255 - (source >> 24)
        var result: UInt32 = 0
        for shift in stride(from: UInt32(0), through: 24, by: 8) {
            let value = (source >> shift & 0xFF) + ((target >> shift & 0xFF) * keep + 127) / 255
            result |= min(value, 255) << shift
        }
        return result
    }
}
