import Foundation

/// The pixels of an image that a comparison ignores: rectangles and the opaque parts of mask images, kept as sorted
/// runs of columns per row so that the comparison skips them a run at a time.
///
/// ```swift
/// var mask = PixelMask(width: 800, height: 600)
/// mask.ignore(x: 0, y: 580, width: 200, height: 20)          // the attribution
/// try mask.ignore(alphaOf: try RGBAImage(contentsOf: maskURL))  // alpha > 0 is ignored
/// let (mismatched, diff) = PixelMatch().compare(expected, actual, mask: mask)
/// ```
/// Ignored pixels are not compared, not counted, and drawn hatched in the diff image (``PixelMatch/hatchColor``).
public struct PixelMask: Sendable, Hashable {
    /// The width of the images it applies to.
    public let width: Int
    /// The height of the images it applies to.
    public let height: Int
    /// Per row, the ignored columns as sorted, disjoint, non-touching runs.
    private(set) var rows: [[Range<Int>]]

    /// The mask file kept beside `image`: `NAME.mask.png` for `NAME.png`.
    public static func file(beside image: URL) -> URL {
        image.deletingPathExtension().appendingPathExtension("mask.png")
    }

    /// A mask that ignores nothing, for images of this size.
    public init(width: Int, height: Int) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        rows = Array(repeating: [], count: self.height)
    }

    /// A mask whose size differs from the image it was to apply to.
    public struct SizeMismatch: Error, Sendable, Hashable, CustomStringConvertible {
        /// The mask image, as named by the caller.
        public var mask: String
        /// The mask's width and height.
        public var maskSize: [Int]
        /// The image's width and height.
        public var imageSize: [Int]
        /// The image, when known: a mask shared by a folder's images does not say which one.
        public var image: String?
        /// Creates the error from the mask's name and both sizes, each `[width, height]`, and the image's name.
        public init(mask: String, maskSize: [Int], imageSize: [Int], image: String? = nil) {
            self.mask = mask
            self.maskSize = maskSize
            self.imageSize = imageSize
            self.image = image
        }
        /// Names the mask, the image and both sizes.
        public var description: String {
            "the mask \(mask) is \(maskSize[0])×\(maskSize[1]) px but the image\(image.map { " " + $0 } ?? "") is "
                + "\(imageSize[0])×\(imageSize[1]) px; a mask has its image's size"
        }
    }

    /// Whether no pixel is ignored.
    public var isEmpty: Bool { rows.allSatisfy(\.isEmpty) }

    /// How many pixels are ignored.
    public var ignoredPixelCount: Int { rows.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } } }

    /// Whether the pixel at (x, y) is ignored.
    public func ignores(x: Int, y: Int) -> Bool {
        guard y >= 0, y < height else { return false }
        return rows[y].contains { $0.contains(x) }
    }

    /// The ignored runs of row `y`, left to right.
    public func runs(row y: Int) -> [Range<Int>] { rows[y] }

    /// Ignores a rectangle; the part outside the image is dropped.
    public mutating func ignore(x: Int, y: Int, width: Int, height: Int) {
        let left = max(x, 0), right = min(x.addingReportingOverflow(max(width, 0)).partialValue, self.width)
        let top = max(y, 0), bottom = min(y.addingReportingOverflow(max(height, 0)).partialValue, self.height)
        guard left < right, top < bottom else { return }
        for row in top..<bottom { insert(left..<right, row: row) }
    }

    /// Ignores every pixel whose alpha is above zero in `image`, which must have the mask's size.
    ///
    /// - Parameter name: how errors name the mask image.
    /// - Throws: ``SizeMismatch`` when the sizes differ.
    public mutating func ignore(alphaOf image: RGBAImage, name: String = "image") throws {
        guard image.width == width, image.height == height else {
            throw SizeMismatch(mask: name, maskSize: [image.width, image.height], imageSize: [width, height])
        }
        image.pixels.withUnsafeBufferPointer { pixels in
            for row in 0..<height {
                var runs: [Range<Int>] = []
                var x = 0
                let base = row * width * 4
                while x < width {
                    guard pixels[base + x * 4 + 3] > 0 else {
                        x += 1
                        continue
                    }
                    let start = x
                    while x < width, pixels[base + x * 4 + 3] > 0 { x += 1 }
                    runs.append(start..<x)
                }
                merge(runs, row: row)
            }
        }
    }

    /// Ignores what `other` ignores too; both must have the same size.
    public mutating func formUnion(_ other: PixelMask) {
        for row in 0..<min(height, other.height) {
            merge(other.rows[row].map { $0.clamped(to: 0..<width) }, row: row)
        }
    }

    /// Adds a run to a row, merging it with the runs it overlaps or touches.
    private mutating func insert(_ run: Range<Int>, row: Int) {
        merge([run], row: row)
    }

    /// Merges sorted runs into a row's in one pass over both, joining runs that overlap or touch: a mask of many
    /// small runs (a dithered one) costs the same as its pixels, not their square.
    private mutating func merge(_ runs: [Range<Int>], row: Int) {
        let runs = runs.filter { !$0.isEmpty }
        guard !runs.isEmpty else { return }
        let existing = rows[row]
        var merged: [Range<Int>] = []
        merged.reserveCapacity(existing.count + runs.count)
        var i = 0, j = 0
        while i < existing.count || j < runs.count {
            let next: Range<Int>
            if j == runs.count || (i < existing.count && existing[i].lowerBound <= runs[j].lowerBound) {
                next = existing[i]
                i += 1
            } else {
                next = runs[j]
                j += 1
            }
            if let last = merged.last, next.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, next.upperBound)
            } else {
                merged.append(next)
            }
        }
        rows[row] = merged
    }
}
