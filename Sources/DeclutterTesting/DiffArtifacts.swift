import Foundation

/// A failed image comparison written where a person can look at it, the same way for ``GoldenFiles``, the
/// swift-snapshot-testing strategies and `declutter diff --report`: a report folder for the one image, with its
/// expected, actual and diff PNGs and an `index.html` that shows them side by side with the slider.
///
/// ```swift
/// let written = try DiffArtifacts.write(difference, expected: referencePNG, actual: actualPNG, into: folder)
/// print(written.message)   // the paths, and the page to open
/// ```
public enum DiffArtifacts {
    /// Where the files of one failure went.
    public struct Written: Sendable, Hashable {
        /// The expected image's copy.
        public var expected: URL
        /// The actual image's copy.
        public var actual: URL
        /// The diff image, when one was drawn (images of one size).
        public var diff: URL?
        /// The report page, with the image's anchor: open it in a browser.
        public var page: URL

        /// The lines a failure message lists: each file, then the page.
        public var message: String {
            var lines = ["  expected: \(expected.path)", "  actual: \(actual.path)"]
            if let diff { lines.append("  diff: \(diff.path)") }
            lines.append("  report: \(page.absoluteString)")
            return lines.joined(separator: "\n")
        }
    }

    /// Writes the failure's report into `folder` (made if missing, replaced if there); the images keep the record's
    /// path under `expected/`, `actual/` and `diff/`.
    ///
    /// - Throws: ``OutputError`` naming what could not be written; nothing is left half-written.
    public static func write(
        _ difference: ImageDifference, expected: Data, actual: Data, into folder: URL,
        title: String = "Snapshot comparison", details: [String] = []
    ) throws -> Written {
        try FileManager.default.createDirectory(
            at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
        let report = ComparisonReport(title: title, details: details)
        var files: [(path: String, source: ComparisonReport.Source)] = [
            ("index.html", .data(Data(report.page([difference]).utf8))),
            ("expected/" + difference.path, .data(expected)),
            ("actual/" + difference.path, .data(actual)),
        ]
        if let diff = difference.diffPNG { files.append(("diff/" + difference.path, .data(diff))) }
        try ComparisonReport.replaceFolder(folder, with: files)
        let page = URL(fileURLWithPath: folder.appendingPathComponent("index.html").path)
        return Written(
            expected: folder.appendingPathComponent("expected/" + difference.path),
            actual: folder.appendingPathComponent("actual/" + difference.path),
            diff: difference.diffPNG == nil ? nil : folder.appendingPathComponent("diff/" + difference.path),
            page: URL(string: page.absoluteString + "#" + ComparisonReport.anchor(for: difference.path)) ?? page)
    }

    /// The record for two PNGs compared with `comparison` (named `path`): its counts, diff and verdict, or a size
    /// difference; nil when they match within the tolerances.
    ///
    /// - Throws: ``ImageReadError`` when either is not a PNG or is damaged.
    public static func difference(
        path: String, expected: Data, actual: Data, comparison: ImageComparison, mask: PixelMask? = nil
    ) throws -> ImageDifference? {
        let first = try RGBAImage(png: expected, name: "the expected image")
        let second = try RGBAImage(png: actual, name: "the actual image")
        let sizes = ([first.width, first.height], [second.width, second.height])
        guard sizes.0 == sizes.1 else {
            return ImageDifference(path: path, status: .changed, expectedSize: sizes.0, actualSize: sizes.1)
        }
        let result = try comparison.compare(first, second, mask: mask)
        guard !result.passes else { return nil }
        return ImageDifference(
            path: path, status: .changed, expectedSize: sizes.0, actualSize: sizes.1,
            differingPixels: result.differingPixels,
            ignoredPixels: mask?.ignoredPixelCount ?? 0, diffPNG: try result.diff.pngData(),
            changedArea: comparison.pixelMatch.changedArea(in: result.diff))
    }
}
