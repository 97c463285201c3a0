import ArgumentParser
import DeclutterClustering
import DeclutterCommandLine
import DeclutterGeometry
import DeclutterPNG
import DeclutterRender
import DeclutterStyle
import DeclutterSupport
import DeclutterTesting
import Foundation

/// `declutter diff`: pixelmatch-compatible comparison of two images or two folders of images, with tolerances,
/// masks, a diff image, an HTML report, JSON and JUnit for CI, and accepting the actual images as the new goldens.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two images (PNG, JPEG, WebP), or two folders of them, as pixelmatch does.",
        discussion: """
            Given two folders, images are paired by their paths relative to each (recursively) and compared on every \
            core; PNG, JPEG and WebP files are read (told by their first bytes), and NAME.mask.png beside an expected \
            image masks it (alpha > 0 is ignored), for one pair too (the line says so).
            Exits 0 when nothing differs beyond the tolerances, 1 when something does (a changed, new or deleted \
            image, or images of two sizes), 2 on bad input: in two folders, an image that cannot be read is named \
            with why and counted as unreadable in the report, JSON (status unreadable, its problem) and JUnit (an \
            error), the others compared all the same, and --update accepts nothing.

            Examples (declutter demo --write-examples writes the first one's inputs):
              declutter demo --write-examples Examples
              declutter diff Examples/expected.png Examples/actual.png \\
                --threshold 0.05 --diff-output diff.png --json -
              declutter demo --output-directory goldens
              declutter demo --output-directory today
              declutter diff goldens today --report report --junit junit.xml \\
                --ignore 0,580,200,20
              declutter diff goldens today --update --prune
            """)

    @Argument(
        help: ArgumentHelp(
            "The reference image (PNG, JPEG or WebP), or a folder of them; the diff shows it in faded grey.",
            valueName: "expected"))
    var first: String

    @Argument(help: ArgumentHelp("The image compared with it, or a folder of them.", valueName: "actual"))
    var second: String

    @Option(parsing: .unconditional, help: "Matching threshold, 0…1; smaller is more sensitive.")
    var threshold: Double = 0.1

    @Flag(name: .customLong("include-aa"), help: "Count anti-aliased pixels as differences.")
    var includeAntialiasing = false

    @Option(parsing: .unconditional, help: "Opacity of the original image in the diff, 0…1.")
    var alpha: Double = 0.1

    @Option(
        name: .customLong("aa-color"),
        help: ArgumentHelp("Colour of anti-aliased pixels in the diff.", valueName: "r,g,b"))
    var antialiasingColor: ColorArgument = ColorArgument(PixelMatch.RGB(255, 255, 0))

    @Option(
        name: .customLong("diff-color"),
        help: ArgumentHelp("Colour of differing pixels in the diff.", valueName: "r,g,b"))
    var diffColor: ColorArgument = ColorArgument(PixelMatch.RGB(255, 0, 0))

    @Option(
        name: .customLong("diff-color-alt"),
        help: ArgumentHelp("Colour of differing pixels that are darker in the second image.", valueName: "r,g,b"))
    var alternateDiffColor: ColorArgument?

    @Flag(help: "Draw only the differences, over transparency.")
    var diffMask = false

    @Flag(
        name: .customLong("no-checkerboard"),
        help: "Blend semi-transparent pixels over white instead of a checkerboard.")
    var white = false

    @Option(parsing: .unconditional, help: "Accept up to this many differing pixels (per image).")
    var maxPixels: Int = 0

    @Option(parsing: .unconditional, help: "Accept up to this share of differing pixels (per image), 0…1.")
    var maxRatio: Double = 0

    @Option(
        name: .customLong("ignore"),
        help: ArgumentHelp(
            "Ignore this rectangle of every image (repeatable); drawn hatched in the diff.", valueName: "x,y,w,h"))
    var ignoredRegions: [RegionArgument] = []

    @Option(
        help: ArgumentHelp(
            "Ignore the pixels whose alpha is above 0 in this PNG, which has the images' size.", valueName: "file.png"))
    var mask: String?

    @Option(
        parsing: .unconditional,
        help:
            "The most pixels an image may have; a larger one is refused before it is decoded (each pixel costs about 12 bytes)."
    )
    var pixelLimit: Int = DiffCommand.defaultPixelLimit

    /// 8192 × 8192: about 800 MB for the two images and the diff.
    static let defaultPixelLimit = 8192 * 8192

    @Option(help: ArgumentHelp("Two images: write the diff image here (PNG).", valueName: "file"))
    var diffOutput: String?

    @Option(
        help: ArgumentHelp(
            "Write an HTML report into this folder (index.html and the pictures), replacing one there.",
            valueName: "dir"))
    var report: String?

    @Option(
        help: ArgumentHelp(
            "Write the result as JSON to this file (- for standard output): for two images "
                + "{\"mismatched\", \"width\", \"height\", \"ratio\", \"ignored\"} (of two sizes {\"mismatched\": "
                + "null, \"expected\": [w, h], \"actual\": [w, h], \"ratio\": null}), for folders one record per image.",
            valueName: "file"))
    var json: String?

    @Option(
        help: ArgumentHelp(
            "Write JUnit XML to this file (- for standard output): one test case per image.", valueName: "file"))
    var junit: String?

    @Flag(help: "Copy the actual images over the expected ones that changed or are new, all or none, and say which.")
    var update = false

    @Flag(help: "With --update, folders: also remove the expected images that have no actual image (and their masks).")
    var prune = false

    func validate() throws {
        guard (0...1).contains(threshold) else { throw ValidationError("--threshold must be in 0…1, got \(threshold)") }
        guard (0...1).contains(alpha) else { throw ValidationError("--alpha must be in 0…1, got \(alpha)") }
        guard maxPixels >= 0 else { throw ValidationError("--max-pixels must be 0 or more, got \(maxPixels)") }
        guard (0...1).contains(maxRatio) else { throw ValidationError("--max-ratio must be in 0…1, got \(maxRatio)") }
        guard (1...PNGDecoder.maximumPixels).contains(pixelLimit) else {
            throw ValidationError("--pixel-limit must be in 1…\(PNGDecoder.maximumPixels), got \(pixelLimit)")
        }
        if let diffOutput, (try? OutputFormat(path: diffOutput)) != .png {
            throw ValidationError("--diff-output must name a .png file, got \(diffOutput)")
        }
        if let mask, !mask.lowercased().hasSuffix(".png") {
            throw ValidationError("--mask must name a .png file, got \(mask)")
        }
        if prune && !update { throw ValidationError("--prune removes deleted images only with --update") }
        if report == "-" { throw ValidationError("--report names a folder; - (standard output) cannot take one") }
        if json == "-" && junit == "-" {
            throw ValidationError("--json and --junit cannot both be - (standard output); give one of them a file")
        }
    }

    /// Whether `--json -` or `--junit -` makes standard output the document alone: what is said goes to standard
    /// error.
    var documentOnStandardOutput: Bool { json == "-" || junit == "-" }

    /// The comparison the options describe.
    var comparison: ImageComparison {
        ImageComparison(
            pixelMatch: PixelMatch(
                threshold: threshold, includeAntialiasing: includeAntialiasing, alpha: alpha,
                antialiasingColor: antialiasingColor.color, diffColor: diffColor.color,
                alternateDiffColor: alternateDiffColor?.color, diffMask: diffMask, checkerboard: !white),
            maximumDifferingPixels: maxPixels, maximumDifferingRatio: maxRatio)
    }

    /// The folder comparison the options describe (also used for one pair: its masks and limits are the same).
    func folderComparison(drawsDiffs: Bool) throws -> FolderComparison {
        let maskImage = try mask.map { path in
            (image: try FolderComparison(pixelLimit: pixelLimit).image(at: URL(fileURLWithPath: path)), name: path)
        }
        return FolderComparison(
            comparison: comparison, ignoredRectangles: ignoredRegions.map(\.rectangle), sharedMask: maskImage,
            drawsDiffs: drawsDiffs, pixelLimit: pixelLimit)
    }

    func run() throws {
        switch (FileSystem.item(atPath: first), FileSystem.item(atPath: second)) {
        case (.folder, .folder): try compareFolders()
        case (.folder, .file), (.file, .folder):
            throw CommandError("\(first) and \(second) must both be images or both be folders")
        case (.folder, nil):
            throw CommandError("\(second): no such folder (\(first) is a folder, so the actual images are one too)")
        case (nil, .folder):
            throw CommandError("\(first): no such folder (\(second) is a folder, so the expected images are one too)")
        default: try comparePair()
        }
    }

    /// Two images: the line or JSON object printed before, the diff image, and the outputs of one record.
    func comparePair() throws {
        if prune { throw ValidationError("--prune applies to folders; \(first) and \(second) are files") }
        try checkOutputs(folders: [first, second])
        let folders = try folderComparison(drawsDiffs: true)
        let expectedURL = URL(fileURLWithPath: first), actualURL = URL(fileURLWithPath: second)
        let (one, two) = try folders.images(expected: expectedURL, actual: actualURL)
        let name = actualURL.lastPathComponent
        var difference: ImageDifference
        var diffImage: RGBAImage?
        if one.width != two.width || one.height != two.height {
            difference = ImageDifference(
                path: name, status: .changed, expectedSize: [one.width, one.height],
                actualSize: [two.width, two.height])
        } else {
            let mask = try folders.mask(for: expectedURL, width: one.width, height: one.height)
            let result = try comparison.compare(one, two, mask: mask)
            diffImage = result.diff
            let status: ImageDifference.Status =
                result.differingPixels == 0 ? .unchanged : result.passes ? .withinTolerance : .changed
            difference = ImageDifference(
                path: name, status: status, expectedSize: [one.width, one.height], actualSize: [two.width, two.height],
                differingPixels: result.differingPixels, ignoredPixels: mask?.ignoredPixelCount ?? 0,
                diffPNG: result.differingPixels > 0 && report != nil ? try result.diff.pngData() : nil)
        }
        var files: [(Data, URL)] = []
        if let diffOutput, let diffImage { files.append((try diffImage.pngData(), URL(fileURLWithPath: diffOutput))) }
        let pairJSON =
            difference.sizesDiffer
            ? "{\"mismatched\":null,\"expected\":[\(one.width),\(one.height)],\"actual\":[\(two.width),\(two.height)],\"ratio\":null}"
            : "{\"mismatched\":\(difference.differingPixels ?? 0),\"width\":\(one.width),\"height\":\(one.height),\"ratio\":\(JSONValue.number(difference.ratio ?? 0).jsonText),\"ignored\":\(difference.ignoredPixels)}"
        try writeOutputs(
            [difference], expected: expectedURL.deletingLastPathComponent(),
            actual: actualURL.deletingLastPathComponent(),
            json: pairJSON + "\n", extraFiles: files, pair: (expectedURL, actualURL))
        // Two sizes make no diff image: one left from an earlier run would be taken for this one's.
        let removedDiff: Bool
        if let diffOutput, diffImage == nil, FileSystem.item(atPath: diffOutput) == .file {
            do {
                try FileManager.default.removeItem(atPath: diffOutput)
            } catch {
                throw OutputError(path: diffOutput, reason: "the earlier diff image cannot be removed")
            }
            removedDiff = true
        } else {
            removedDiff = false
        }
        if !documentOnStandardOutput {
            if difference.sizesDiffer {
                try StandardOutput.print(
                    "the sizes differ: \(first) is \(ImageDifference.sizeText(difference.expectedSize)) px, "
                        + "\(second) is \(ImageDifference.sizeText(difference.actualSize)) px"
                        + (diffOutput.map {
                            "; no diff image for two sizes\(removedDiff ? " (the earlier \($0) removed)" : "")"
                        } ?? ""))
            } else {
                let percent = String(format: "%.4f", (difference.ratio ?? 0) * 100)
                try StandardOutput.print(
                    "\(difference.differingPixels ?? 0) of \(one.width)×\(one.height) pixels differ (\(percent) %)"
                        + (difference.status == .withinTolerance ? ", within the tolerances" : "")
                        + (difference.ignoredPixels > 0 ? "; \(difference.ignoredPixels) ignored" : "")
                        + Self.maskNote(beside: expectedURL))
            }
        }
        warnAboutMasks([difference])
        try applyUpdate([difference], expected: expectedURL, actual: actualURL, pair: (expectedURL, actualURL))
        if difference.status.fails && !update { throw ExitCode(1) }
    }
}

extension DiffCommand {
    /// For one pair: " (masked by NAME.mask.png)" when a mask file beside the expected image applies, so that a count
    /// that depends on which image comes first says why.
    static func maskNote(beside expected: URL) -> String {
        let mask = PixelMask.file(beside: expected)
        return FileSystem.item(atPath: mask.path) == .file ? " (masked by \(mask.relativePath))" : ""
    }
}
