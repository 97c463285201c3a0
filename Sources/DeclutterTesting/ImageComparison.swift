/// Compares two images with ``PixelMatch`` and decides whether the difference is within tolerances.
///
/// ```swift
/// let comparison = ImageComparison(pixelMatch: PixelMatch(threshold: 0.05), maximumDifferingPixels: 10)
/// let result = try comparison.compare(expected, actual)
/// if !result.passes { try result.diff.pngData().write(to: diffURL) }
/// ```
public struct ImageComparison: Sendable, Hashable {
    /// How pixels are compared and the diff drawn. Default: pixelmatch's defaults (threshold 0.1, anti-aliasing
    /// ignored).
    public var pixelMatch: PixelMatch
    /// The most differing pixels still accepted. Default 0.
    public var maximumDifferingPixels: Int
    /// The largest share of differing pixels still accepted, 0…1. Default 0.
    public var maximumDifferingRatio: Double

    /// Creates a comparison; see the properties for the defaults. The images pass when either limit holds.
    public init(
        pixelMatch: PixelMatch = PixelMatch(), maximumDifferingPixels: Int = 0, maximumDifferingRatio: Double = 0
    ) {
        self.pixelMatch = pixelMatch
        self.maximumDifferingPixels = maximumDifferingPixels
        self.maximumDifferingRatio = maximumDifferingRatio
    }

    /// What a comparison found.
    public struct Result: Sendable, Hashable {
        /// Pixels that differ beyond the threshold and are not anti-aliasing.
        public var differingPixels: Int
        /// Differing pixels over all pixels.
        public var ratio: Double
        /// pixelmatch's diff image: the first image in faded grey, differences and anti-aliasing in colour.
        public var diff: RGBAImage
        /// Whether the difference is within the limits.
        public var passes: Bool
    }

    /// Two images that cannot be compared because their sizes differ.
    public struct SizeMismatch: Error, Sendable, Hashable, CustomStringConvertible {
        /// The first image's width and height.
        public var first: [Int]
        /// The second image's width and height.
        public var second: [Int]
        /// Creates the error from both sizes, each `[width, height]`.
        public init(first: [Int], second: [Int]) {
            self.first = first
            self.second = second
        }
        /// Says both sizes.
        public var description: String {
            "the images differ in size: \(first[0])×\(first[1]) px and \(second[0])×\(second[1]) px"
        }
    }

    /// Compares `second` against `first` (the reference: it is the faded background of the diff).
    ///
    /// - Parameter mask: pixels not compared, drawn hatched in the diff; it has the images' size.
    /// - Throws: ``SizeMismatch`` when the sizes differ, ``PixelMask/SizeMismatch`` when the mask's does.
    public func compare(_ first: RGBAImage, _ second: RGBAImage, mask: PixelMask? = nil) throws -> Result {
        try checkSizes(first, second, mask)
        let (mismatched, diff) = pixelMatch.compare(first, second, mask: mask)
        return Result(
            differingPixels: mismatched, ratio: ratio(mismatched, first), diff: diff, passes: passes(mismatched, first))
    }

    /// Whether `second` matches `first` within the limits, without drawing a diff: counting stops as soon as the
    /// answer is known, so a check that fails costs only as much as it takes to find enough differing pixels.
    ///
    /// - Throws: ``SizeMismatch`` when the sizes differ, ``PixelMask/SizeMismatch`` when the mask's does.
    public func passes(_ first: RGBAImage, _ second: RGBAImage, mask: PixelMask? = nil) throws -> Bool {
        try checkSizes(first, second, mask)
        // Any count above both limits fails; the ratio's limit in pixels is rounded up, and the verdict below is the
        // one `compare` gives, so rounding cannot change it.
        let ratioPixels = Double(first.width * first.height) * maximumDifferingRatio
        let limit = max(maximumDifferingPixels, Int(ratioPixels.rounded(.up)))
        return passes(pixelMatch.countMismatched(first, second, mask: mask, stoppingAbove: limit), first)
    }

    private func checkSizes(_ first: RGBAImage, _ second: RGBAImage, _ mask: PixelMask?) throws {
        guard first.width == second.width, first.height == second.height else {
            throw SizeMismatch(first: [first.width, first.height], second: [second.width, second.height])
        }
        if let mask, mask.width != first.width || mask.height != first.height {
            throw PixelMask.SizeMismatch(
                mask: "given", maskSize: [mask.width, mask.height], imageSize: [first.width, first.height])
        }
    }

    private func ratio(_ mismatched: Int, _ image: RGBAImage) -> Double {
        Double(mismatched) / Double(max(image.width * image.height, 1))
    }

    private func passes(_ mismatched: Int, _ image: RGBAImage) -> Bool {
        mismatched <= maximumDifferingPixels || ratio(mismatched, image) <= maximumDifferingRatio
    }
}
