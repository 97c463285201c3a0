import Foundation

/// What comparing one expected image with its actual image found: one record of a folder comparison, or the result
/// of comparing a single pair.
public struct ImageDifference: Sendable, Hashable {
    /// How the actual image relates to the expected one.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// Both images exist and no compared pixel differs.
        case unchanged
        /// Pixels differ, within the comparison's tolerances: not a failure.
        case withinTolerance = "within-tolerance"
        /// Pixels differ beyond the tolerances, or the sizes differ: a failure.
        case changed
        /// Only the actual image exists: a failure until it is accepted.
        case new
        /// Only the expected image exists: a failure until it is removed.
        case deleted
        /// An image of the pair or its mask cannot be read or decoded (``ImageDifference/problem`` says which and
        /// why), so the pair was not compared: an error, not a verdict, which no update accepts.
        case unreadable

        /// Whether this status fails the comparison.
        public var fails: Bool { self != .unchanged && self != .withinTolerance }
    }

    /// The image's path relative to both folders, with `/` between folders.
    public var path: String
    /// The verdict.
    public var status: Status
    /// The expected image's width and height; nil when it does not exist.
    public var expectedSize: [Int]?
    /// The actual image's width and height; nil when it does not exist.
    public var actualSize: [Int]?
    /// Pixels that differ beyond the threshold (not anti-aliasing, not ignored); nil when the images were not
    /// compared pixel by pixel (one is missing, or their sizes differ).
    public var differingPixels: Int?
    /// Pixels left out of the comparison by masks.
    public var ignoredPixels: Int
    /// The diff image as PNG, when one was drawn (for changed and within-tolerance pairs of one size).
    public var diffPNG: Data?
    /// Where the counted pixels lie, `[x, y, width, height]`, when the diff image was drawn and tells them
    /// (``PixelMatch/changedArea(in:)``): the report shows a small one enlarged.
    public var changedArea: [Int]?
    /// For an ``Status/unreadable`` pair, the file that cannot be read and why, as the error said it.
    public var problem: String?

    /// Creates a record from its parts.
    public init(
        path: String, status: Status, expectedSize: [Int]? = nil, actualSize: [Int]? = nil, differingPixels: Int? = nil,
        ignoredPixels: Int = 0, diffPNG: Data? = nil, changedArea: [Int]? = nil, problem: String? = nil
    ) {
        self.path = path
        self.status = status
        self.expectedSize = expectedSize
        self.actualSize = actualSize
        self.differingPixels = differingPixels
        self.ignoredPixels = ignoredPixels
        self.diffPNG = diffPNG
        self.changedArea = changedArea
        self.problem = problem
    }

    /// Whether both images exist and their sizes differ.
    public var sizesDiffer: Bool {
        guard let expectedSize, let actualSize else { return false }
        return expectedSize != actualSize
    }

    /// Differing pixels over the expected image's pixels; nil when not compared pixel by pixel.
    public var ratio: Double? {
        guard let differingPixels, let expectedSize else { return nil }
        return Double(differingPixels) / Double(max(expectedSize[0] * expectedSize[1], 1))
    }

    /// One line for people: what differs and by how much.
    public var summary: String {
        switch status {
        case .unchanged: return "unchanged"
        case .new: return "new (\(Self.sizeText(actualSize)) px)"
        case .deleted: return "deleted (was \(Self.sizeText(expectedSize)) px)"
        case .unreadable: return problem ?? "cannot be read"
        case .changed, .withinTolerance:
            if sizesDiffer {
                return "size changed from \(Self.sizeText(expectedSize)) to \(Self.sizeText(actualSize)) px"
            }
            let count = differingPixels ?? 0, percent = String(format: "%.4f", (ratio ?? 0) * 100)
            let pixels = count == 1 ? "pixel differs" : "pixels differ"
            return "\(count) \(pixels) (\(percent) %)" + (status == .withinTolerance ? ", within the tolerances" : "")
        }
    }

    /// The reason a golden check gives for this difference: the two sizes, or how many pixels differ beyond
    /// `threshold` (pixelmatch's colour threshold) and their share, to two decimals.
    public func failureReason(threshold: Double) -> String {
        if sizesDiffer {
            return
                "the images differ in size: expected \(Self.sizeText(expectedSize)) px, got \(Self.sizeText(actualSize)) px"
        }
        let count = differingPixels ?? 0, percent = String(format: "%.2f", (ratio ?? 0) * 100)
        return "\(count) \(count == 1 ? "pixel differs" : "pixels differ") (\(percent) %) at threshold \(threshold)"
    }

    /// `W×H`, or `?` for a missing size.
    public static func sizeText(_ size: [Int]?) -> String {
        guard let size, size.count == 2 else { return "?" }
        return "\(size[0])×\(size[1])"
    }
}
