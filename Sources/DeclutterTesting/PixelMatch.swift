/// Counts the pixels that differ between two images with pixelmatch 7.2's semantics and draws its diff image.
///
/// Colours are compared by their YIQ distance (Kotsarenko and Ramos) against `threshold`; a differing pixel that
/// looks like anti-aliasing in either image (Vysniauskas's slope detector) is not counted unless
/// `includeAntialiasing` is set. Semi-transparent pixels are blended over a checkerboard (or white) first.
/// The counts and diff images equal pixelmatch's on its own fixtures.
public struct PixelMatch: Sendable, Hashable {
    /// The matching threshold, 0…1; smaller is more sensitive. Default 0.1.
    public var threshold: Double
    /// Whether anti-aliased pixels count as differences (no anti-aliasing detection). Default false.
    public var includeAntialiasing: Bool
    /// The opacity of the original image, in grey, behind the diff. Default 0.1.
    public var alpha: Double
    /// The colour of anti-aliased pixels in the diff. Default yellow (255, 255, 0).
    public var antialiasingColor: RGB
    /// The colour of differing pixels in the diff. Default red (255, 0, 0).
    public var diffColor: RGB
    /// The colour of differing pixels that are darker in the second image; nil uses ``diffColor``. Default nil.
    public var alternateDiffColor: RGB?
    /// Draw only the differing pixels, over transparency. Default false.
    public var diffMask: Bool
    /// Blend semi-transparent pixels over a checkerboard (true) or white (false) before comparing. Default true.
    public var checkerboard: Bool

    /// An opaque colour.
    public struct RGB: Sendable, Hashable {
        /// Red, 0…255.
        public var red: UInt8
        /// Green, 0…255.
        public var green: UInt8
        /// Blue, 0…255.
        public var blue: UInt8
        /// Creates a colour from its components.
        public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }
    }

    /// Creates a comparison; see the properties for the defaults (pixelmatch's).
    public init(threshold: Double = 0.1, includeAntialiasing: Bool = false, alpha: Double = 0.1,
                antialiasingColor: RGB = RGB(255, 255, 0), diffColor: RGB = RGB(255, 0, 0), alternateDiffColor: RGB? = nil,
                diffMask: Bool = false, checkerboard: Bool = true) {
        self.threshold = threshold
        self.includeAntialiasing = includeAntialiasing
        self.alpha = alpha
        self.antialiasingColor = antialiasingColor
        self.diffColor = diffColor
        self.alternateDiffColor = alternateDiffColor
        self.diffMask = diffMask
        self.checkerboard = checkerboard
    }

    /// The number of differing pixels and the diff image.
    ///
    /// - Precondition: the images have the same size (``ImageComparison`` checks and reports it).
    public func compare(_ first: RGBAImage, _ second: RGBAImage) -> (mismatched: Int, diff: RGBAImage) {
        var output = [UInt8](repeating: 0, count: first.width * first.height * 4)
        let mismatched = output.withUnsafeMutableBufferPointer { run(first, second, output: $0.baseAddress) }
        return (mismatched, RGBAImage(width: first.width, height: first.height, pixels: output))
    }

    /// The number of differing pixels, without drawing a diff.
    public func countMismatched(_ first: RGBAImage, _ second: RGBAImage) -> Int {
        run(first, second, output: nil)
    }

    private func run(_ first: RGBAImage, _ second: RGBAImage, output: UnsafeMutablePointer<UInt8>?) -> Int {
        precondition(first.width == second.width && first.height == second.height, "compare images of the same size")
        guard first.width * first.height > 0 else { return 0 }
        return first.pixels.withUnsafeBufferPointer { one in
            second.pixels.withUnsafeBufferPointer { two in
                Pass(options: self, one: one.baseAddress!, two: two.baseAddress!, output: output,
                     width: first.width, height: first.height).run()
            }
        }
    }

    /// One comparison over raw pixel memory.
    private struct Pass {
        let options: PixelMatch
        let one: UnsafePointer<UInt8>
        let two: UnsafePointer<UInt8>
        let output: UnsafeMutablePointer<UInt8>?
        let width: Int
        let height: Int

        var words1: UnsafePointer<UInt32> { UnsafeRawPointer(one).assumingMemoryBound(to: UInt32.self) }
        var words2: UnsafePointer<UInt32> { UnsafeRawPointer(two).assumingMemoryBound(to: UInt32.self) }

        func run() -> Int {
            let count = width * height
            let a32 = words1, b32 = words2
            var identical = true
            for index in 0..<count where a32[index] != b32[index] {
                identical = false
                break
            }
            if identical {
                if let output, !options.diffMask {
                    for index in 0..<count { drawGrey(index * 4, output) }
                }
                return 0
            }
            // 35215 is the largest possible YIQ distance.
            let maximumDelta = 35215 * options.threshold * options.threshold
            let alternate = options.alternateDiffColor ?? options.diffColor
            var mismatched = 0
            for y in 0..<height {
                for x in 0..<width {
                    let index = y * width + x, position = index * 4
                    let delta = a32[index] == b32[index] ? 0 : colorDelta(one, two, position, position, brightnessOnly: false)
                    if abs(delta) > maximumDelta {
                        let antialiased = antialiased(one, x, y, a32, b32) || antialiased(two, x, y, b32, a32)
                        if !options.includeAntialiasing && antialiased {
                            // Anti-aliasing: drawn, not counted, and left out of a mask.
                            if let output, !options.diffMask { draw(options.antialiasingColor, position, output) }
                        } else {
                            if let output { draw(delta < 0 ? alternate : options.diffColor, position, output) }
                            mismatched += 1
                        }
                    } else if let output, !options.diffMask {
                        drawGrey(position, output)
                    }
                }
            }
            return mismatched
        }

        /// Whether the pixel at (x, y) of `image` looks like anti-aliasing: it has both darker and brighter
        /// neighbours, few equal ones, and the darkest or brightest neighbour sits in a flat area of both images.
        func antialiased(_ image: UnsafePointer<UInt8>, _ x1: Int, _ y1: Int,
                         _ a32: UnsafePointer<UInt32>, _ b32: UnsafePointer<UInt32>) -> Bool {
            let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0), x2 = min(x1 + 1, width - 1), y2 = min(y1 + 1, height - 1)
            let position = (y1 * width + x1) * 4
            var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
            var darkest = 0.0, brightest = 0.0
            var darkestX = 0, darkestY = 0, brightestX = 0, brightestY = 0
            for x in x0...x2 {
                for y in y0...y2 where x != x1 || y != y1 {
                    let delta = colorDelta(image, image, position, (y * width + x) * 4, brightnessOnly: true)
                    if delta == 0 {
                        zeroes += 1
                        if zeroes > 2 { return false }
                    } else if delta < darkest {
                        darkest = delta; darkestX = x; darkestY = y
                    } else if delta > brightest {
                        brightest = delta; brightestX = x; brightestY = y
                    }
                }
            }
            if darkest == 0 || brightest == 0 { return false }
            return (hasManySiblings(a32, darkestX, darkestY) && hasManySiblings(b32, darkestX, darkestY))
                || (hasManySiblings(a32, brightestX, brightestY) && hasManySiblings(b32, brightestX, brightestY))
        }

        /// Whether a pixel has three or more identical neighbours (image edges count as one).
        func hasManySiblings(_ image: UnsafePointer<UInt32>, _ x1: Int, _ y1: Int) -> Bool {
            let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0), x2 = min(x1 + 1, width - 1), y2 = min(y1 + 1, height - 1)
            let value = image[y1 * width + x1]
            var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
            for x in x0...x2 {
                for y in y0...y2 where x != x1 || y != y1 {
                    if value == image[y * width + x] { zeroes += 1 }
                    if zeroes > 2 { return true }
                }
            }
            return false
        }

        /// The squared YIQ distance of two pixels, negative when the second is darker; or, for
        /// `brightnessOnly`, the signed brightness difference. `k` also places the checkerboard.
        @inline(__always)
        func colorDelta(_ image1: UnsafePointer<UInt8>, _ image2: UnsafePointer<UInt8>, _ k: Int, _ m: Int, brightnessOnly: Bool) -> Double {
            let r1 = Double(image1[k]), g1 = Double(image1[k + 1]), b1 = Double(image1[k + 2]), a1 = Double(image1[k + 3])
            let r2 = Double(image2[m]), g2 = Double(image2[m + 1]), b2 = Double(image2[m + 2]), a2 = Double(image2[m + 3])
            var dr = r1 - r2, dg = g1 - g2, db = b1 - b2
            let da = a1 - a2
            if dr == 0 && dg == 0 && db == 0 && da == 0 { return 0 }
            if a1 < 255 || a2 < 255 {
                var rb = 255.0, gb = 255.0, bb = 255.0
                if options.checkerboard {
                    rb = 48 + 159 * Double(k % 2)
                    gb = 48 + 159 * Double(Int(Double(k) / 1.618033988749895) % 2)
                    bb = 48 + 159 * Double(Int(Double(k) / 2.618033988749895) % 2)
                }
                dr = (r1 * a1 - r2 * a2 - rb * da) / 255
                dg = (g1 * a1 - g2 * a2 - gb * da) / 255
                db = (b1 * a1 - b2 * a2 - bb * da) / 255
            }
            let y = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
            if brightnessOnly { return y }
            let i = dr * 0.59597799 - dg * 0.27417610 - db * 0.32180189
            let q = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694
            let delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
            return y > 0 ? -delta : delta
        }

        @inline(__always)
        func draw(_ color: RGB, _ position: Int, _ output: UnsafeMutablePointer<UInt8>) {
            output[position] = color.red
            output[position + 1] = color.green
            output[position + 2] = color.blue
            output[position + 3] = 255
        }

        /// The first image's brightness faded towards white by `alpha`, stored truncated as pixelmatch's byte arrays do.
        @inline(__always)
        func drawGrey(_ position: Int, _ output: UnsafeMutablePointer<UInt8>) {
            let luminance = Double(one[position]) * 0.29889531 + Double(one[position + 1]) * 0.58662247
                + Double(one[position + 2]) * 0.11448223
            let value = 255 + (luminance - 255) * options.alpha * Double(one[position + 3]) / 255
            let grey = UInt8(clamping: Int(value))
            output[position] = grey
            output[position + 1] = grey
            output[position + 2] = grey
            output[position + 3] = 255
        }
    }
}
