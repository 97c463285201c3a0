/// Counts the pixels that differ between two images with pixelmatch 7.2's semantics and draws its diff image.
///
/// Colours are compared by their YIQ distance (Kotsarenko and Ramos) against `threshold`; a differing pixel that
/// looks like anti-aliasing in either image (Vysniauskas's slope detector) is not counted unless
/// `includeAntialiasing` is set. Semi-transparent pixels are blended over a checkerboard (or white) first.
/// The counts and diff images equal pixelmatch's on its own fixtures.
///
/// Two implementations give the same answers: ``Engine/reference``, pixelmatch's loop written out plainly, and
/// ``Engine/fast`` (the default), which finds equal pixels sixteen at a time in vector lanes, draws the faded
/// background a run at a time, judges differing pixels eight at a time and splits large images into bands of rows on
/// every core. Pixels a ``PixelMask`` ignores
/// are neither compared nor counted and are drawn hatched in ``hatchColor``.
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
    /// The colour of the stripes drawn over ignored pixels in the diff. Default blue (0, 128, 255).
    public var hatchColor: RGB
    /// Which implementation runs. Default ``Engine/fast``.
    public var engine: Engine

    /// The two implementations, which give the same counts and diff images.
    public enum Engine: Sendable, Hashable, CaseIterable {
        /// pixelmatch's loop as written, one pixel after another on one thread: the version to read.
        case reference
        /// Vector lanes, runs and bands of rows on every core.
        case fast
    }

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
    public init(
        threshold: Double = 0.1, includeAntialiasing: Bool = false, alpha: Double = 0.1,
        antialiasingColor: RGB = RGB(255, 255, 0), diffColor: RGB = RGB(255, 0, 0), alternateDiffColor: RGB? = nil,
        diffMask: Bool = false, checkerboard: Bool = true, hatchColor: RGB = RGB(0, 128, 255), engine: Engine = .fast
    ) {
        self.threshold = threshold
        self.includeAntialiasing = includeAntialiasing
        self.alpha = alpha
        self.antialiasingColor = antialiasingColor
        self.diffColor = diffColor
        self.alternateDiffColor = alternateDiffColor
        self.diffMask = diffMask
        self.checkerboard = checkerboard
        self.hatchColor = hatchColor
        self.engine = engine
    }

    /// The number of differing pixels and the diff image.
    ///
    /// - Precondition: the images (and the mask, if any) have the same size (``ImageComparison`` checks and reports
    /// it).
    public func compare(_ first: RGBAImage, _ second: RGBAImage, mask: PixelMask? = nil) -> (
        mismatched: Int, diff: RGBAImage
    ) {
        let count = first.width * first.height * 4
        guard !diffMask else {
            // A mask leaves every pixel it does not draw transparent: it starts zeroed.
            var output = [UInt8](repeating: 0, count: count)
            let mismatched = output.withUnsafeMutableBytes { buffer in
                run(
                    first, second, mask: mask, output: buffer.baseAddress?.assumingMemoryBound(to: UInt32.self),
                    limit: nil)
            }
            return (mismatched, RGBAImage(width: first.width, height: first.height, pixels: output))
        }
        // Otherwise both engines write every pixel (grey, a colour or the hatch), so zeroing first would be wasted.
        var mismatched = 0
        let output = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            mismatched = run(
                first, second, mask: mask,
                output: UnsafeMutableRawPointer(buffer.baseAddress)?.assumingMemoryBound(to: UInt32.self),
                limit: nil)
            initialized = count
        }
        return (mismatched, RGBAImage(width: first.width, height: first.height, pixels: output))
    }

    /// The number of differing pixels, drawing the diff into `diff`, whose pixels are reused when it has the images'
    /// size (as pixelmatch draws into the caller's buffer): comparing many pairs of one size then allocates nothing.
    ///
    /// - Precondition: the images (and the mask, if any) have the same size.
    public func compare(_ first: RGBAImage, _ second: RGBAImage, mask: PixelMask? = nil, into diff: inout RGBAImage)
        -> Int
    {
        guard diff.width == first.width, diff.height == first.height else {
            let result = compare(first, second, mask: mask)
            diff = result.diff
            return result.mismatched
        }
        // A mask leaves the pixels it does not draw transparent; otherwise every pixel is written.
        if diffMask { diff.pixels.withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) } }
        return diff.pixels.withUnsafeMutableBytes { buffer in
            run(first, second, mask: mask, output: buffer.baseAddress?.assumingMemoryBound(to: UInt32.self), limit: nil)
        }
    }

    /// The number of differing pixels, without drawing a diff.
    ///
    /// With `limit`, counting may stop as soon as more than `limit` pixels differ: the result is then some number above
    /// `limit`, not the full count, which is all a pass-or-fail check needs.
    public func countMismatched(
        _ first: RGBAImage, _ second: RGBAImage, mask: PixelMask? = nil, stoppingAbove limit: Int? = nil
    ) -> Int {
        run(first, second, mask: mask, output: nil, limit: limit)
    }

    private func run(
        _ first: RGBAImage, _ second: RGBAImage, mask: PixelMask?, output: UnsafeMutablePointer<UInt32>?, limit: Int?
    ) -> Int {
        precondition(first.width == second.width && first.height == second.height, "compare images of the same size")
        if let mask {
            precondition(mask.width == first.width && mask.height == first.height, "a mask has its images' size")
        }
        guard first.width * first.height > 0 else { return 0 }
        let mask = mask?.isEmpty == true ? nil : mask
        return first.pixels.withUnsafeBufferPointer { one in
            second.pixels.withUnsafeBufferPointer { two in
                // Both buffers hold width · height · 4 > 0 bytes, so their base addresses exist.
                guard let one = one.baseAddress, let two = two.baseAddress else { return 0 }
                let pass = ReferencePass(
                    options: self, one: one, two: two, output: output, width: first.width,
                    height: first.height, mask: mask)
                switch engine {
                case .reference: return pass.run()
                case .fast: return FastPass(pass).run(limit: limit)
                }
            }
        }
    }

}
