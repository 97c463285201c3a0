/// Compares two images pixel by pixel within tolerances and draws where they differ.
public struct ImageComparison: Sendable, Hashable {
    /// The largest difference in any RGBA channel (0…255) still counted as equal. Default 2,
    /// which absorbs rounding in anti-aliasing but not a shifted edge or a changed colour.
    public var channelTolerance: Int
    /// The most differing pixels still accepted. Default 0.
    public var maximumDifferingPixels: Int
    /// The largest share of differing pixels still accepted, 0…1. Default 0.
    public var maximumDifferingRatio: Double

    /// Creates a comparison; see the properties for the defaults.
    public init(channelTolerance: Int = 2, maximumDifferingPixels: Int = 0, maximumDifferingRatio: Double = 0) {
        self.channelTolerance = channelTolerance
        self.maximumDifferingPixels = maximumDifferingPixels
        self.maximumDifferingRatio = maximumDifferingRatio
    }

    /// What a comparison found.
    public struct Result: Sendable, Hashable {
        /// Pixels whose channels differ by more than the tolerance.
        public var differingPixels: Int
        /// Differing pixels over all pixels.
        public var ratio: Double
        /// The unchanged image faded to light grey with differing pixels in red.
        public var diff: RGBAImage
        /// Whether the difference is within the comparison's limits.
        public var passes: Bool
    }

    /// Why two images could not be compared at all.
    public struct SizeMismatch: Error, Sendable, Hashable, CustomStringConvertible {
        /// The expected image's size.
        public var expected: (width: Int, height: Int)
        /// The actual image's size.
        public var actual: (width: Int, height: Int)
        /// Says both sizes.
        public var description: String {
            "the images differ in size: expected \(expected.width)×\(expected.height) px, got \(actual.width)×\(actual.height) px"
        }
        /// Sizes are equal when both match.
        public static func == (lhs: SizeMismatch, rhs: SizeMismatch) -> Bool {
            lhs.expected == rhs.expected && lhs.actual == rhs.actual
        }
        /// Hashes both sizes.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(expected.width); hasher.combine(expected.height)
            hasher.combine(actual.width); hasher.combine(actual.height)
        }
    }

    /// Compares `actual` with `expected`.
    ///
    /// - Throws: ``SizeMismatch`` when the sizes differ.
    public func compare(_ actual: RGBAImage, _ expected: RGBAImage) throws -> Result {
        guard actual.width == expected.width, actual.height == expected.height else {
            throw SizeMismatch(expected: (expected.width, expected.height), actual: (actual.width, actual.height))
        }
        var diff = [UInt8](repeating: 0, count: actual.pixels.count)
        var differing = 0
        for offset in stride(from: 0, to: actual.pixels.count, by: 4) {
            var largest = 0
            for channel in 0..<4 {
                largest = max(largest, abs(Int(actual.pixels[offset + channel]) - Int(expected.pixels[offset + channel])))
            }
            if largest > channelTolerance {
                differing += 1
                diff[offset] = 255; diff[offset + 3] = 255
            } else {
                // Faded grey of the expected pixel's luminance, blended over white, so the picture stays readable.
                let red = Double(expected.pixels[offset]), green = Double(expected.pixels[offset + 1])
                let blue = Double(expected.pixels[offset + 2]), alpha = Double(expected.pixels[offset + 3]) / 255
                let luminance = 0.299 * red + 0.587 * green + 0.114 * blue
                let grey = UInt8((255 + (luminance - 255) * alpha * 0.1).rounded())
                diff[offset] = grey; diff[offset + 1] = grey; diff[offset + 2] = grey; diff[offset + 3] = 255
            }
        }
        let total = max(actual.width * actual.height, 1)
        let ratio = Double(differing) / Double(total)
        let passes = differing <= maximumDifferingPixels || ratio <= maximumDifferingRatio
        return Result(differingPixels: differing, ratio: ratio,
                      diff: RGBAImage(width: actual.width, height: actual.height, pixels: diff), passes: passes)
    }
}
