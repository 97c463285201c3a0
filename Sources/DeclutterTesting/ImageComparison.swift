/// Compares two images with ``PixelMatch`` and decides whether the difference is within tolerances.
///
/// ```swift
/// let comparison = ImageComparison(pixelMatch: PixelMatch(threshold: 0.05), maximumDifferingPixels: 10)
/// let result = try comparison.compare(expected, actual)
/// if !result.passes { try result.diff.pngData().write(to: diffURL) }
/// ```
public struct ImageComparison: Sendable, Hashable {
    /// How pixels are compared and the diff drawn. Default: pixelmatch's defaults (threshold 0.1, anti-aliasing ignored).
    public var pixelMatch: PixelMatch
    /// The most differing pixels still accepted. Default 0.
    public var maximumDifferingPixels: Int
    /// The largest share of differing pixels still accepted, 0…1. Default 0.
    public var maximumDifferingRatio: Double

    /// Creates a comparison; see the properties for the defaults. The images pass when either limit holds.
    public init(pixelMatch: PixelMatch = PixelMatch(), maximumDifferingPixels: Int = 0, maximumDifferingRatio: Double = 0) {
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
    /// - Throws: ``SizeMismatch`` when the sizes differ.
    public func compare(_ first: RGBAImage, _ second: RGBAImage) throws -> Result {
        guard first.width == second.width, first.height == second.height else {
            throw SizeMismatch(first: [first.width, first.height], second: [second.width, second.height])
        }
        let (mismatched, diff) = pixelMatch.compare(first, second)
        let ratio = Double(mismatched) / Double(max(first.width * first.height, 1))
        let passes = mismatched <= maximumDifferingPixels || ratio <= maximumDifferingRatio
        return Result(differingPixels: mismatched, ratio: ratio, diff: diff, passes: passes)
    }
}
