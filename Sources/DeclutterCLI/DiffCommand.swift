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

/// `declutter diff`: pixelmatch-compatible image comparison with tolerances and a diff image.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two PNG images as pixelmatch does.",
        discussion: """
            Exits 0 when nothing differs beyond the tolerances, 1 when it does, 2 on bad input.
            Example:
              declutter diff expected.png actual.png --threshold 0.05 --diff-output diff.png --json
            """)

    @Argument(help: "The reference image (PNG); the diff shows it in faded grey.")
    var first: String

    @Argument(help: "The image compared with it (PNG).")
    var second: String

    @Option(help: "Matching threshold, 0…1; smaller is more sensitive.")
    var threshold: Double = 0.1

    @Flag(name: .customLong("include-aa"), help: "Count anti-aliased pixels as differences.")
    var includeAntialiasing = false

    @Option(help: "Opacity of the original image in the diff, 0…1.")
    var alpha: Double = 0.1

    @Option(name: .customLong("aa-color"), help: ArgumentHelp("Colour of anti-aliased pixels in the diff.", valueName: "r,g,b"))
    var antialiasingColor: ColorArgument = ColorArgument(PixelMatch.RGB(255, 255, 0))

    @Option(name: .customLong("diff-color"), help: ArgumentHelp("Colour of differing pixels in the diff.", valueName: "r,g,b"))
    var diffColor: ColorArgument = ColorArgument(PixelMatch.RGB(255, 0, 0))

    @Option(name: .customLong("diff-color-alt"),
            help: ArgumentHelp("Colour of differing pixels that are darker in the second image.", valueName: "r,g,b"))
    var alternateDiffColor: ColorArgument?

    @Flag(help: "Draw only the differences, over transparency.")
    var diffMask = false

    @Flag(name: .customLong("no-checkerboard"), help: "Blend semi-transparent pixels over white instead of a checkerboard.")
    var white = false

    @Option(help: "Accept up to this many differing pixels.")
    var maxPixels: Int = 0

    @Option(help: "Accept up to this share of differing pixels, 0…1.")
    var maxRatio: Double = 0

    @Option(help: "The most pixels an image may have; a larger one is refused before it is decoded (each pixel costs about 12 bytes).")
    var pixelLimit: Int = DiffCommand.defaultPixelLimit

    /// 8192 × 8192: about 800 MB for the two images and the diff.
    static let defaultPixelLimit = 8192 * 8192

    @Option(help: ArgumentHelp("Write the diff image here (PNG).", valueName: "file"))
    var diffOutput: String?

    @Flag(help: "Print {\"mismatched\", \"width\", \"height\", \"ratio\"} as JSON.")
    var json = false

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
    }

    func run() throws {
        if let diffOutput {
            try FileSystem.refuseOverwriting([("--diff-output", diffOutput)], inputs: [("first image", first), ("second image", second)])
        }
        let one = try image(first), two = try image(second)
        guard one.width == two.width, one.height == two.height else {
            throw CommandError("the images differ in size: \(first) is \(one.width)×\(one.height) px, "
                + "\(second) is \(two.width)×\(two.height) px")
        }
        let comparison = ImageComparison(
            pixelMatch: PixelMatch(threshold: threshold, includeAntialiasing: includeAntialiasing, alpha: alpha,
                                   antialiasingColor: antialiasingColor.color, diffColor: diffColor.color,
                                   alternateDiffColor: alternateDiffColor?.color, diffMask: diffMask, checkerboard: !white),
            maximumDifferingPixels: maxPixels, maximumDifferingRatio: maxRatio)
        let result = try comparison.compare(one, two)
        if let diffOutput {
            try FileSystem.writeAtomically(result.diff.pngData(), to: URL(fileURLWithPath: diffOutput))
        }
        if json {
            try StandardOutput.print("{\"mismatched\":\(result.differingPixels),\"width\":\(one.width),\"height\":\(one.height),\"ratio\":\(result.ratio)}")
        } else {
            let percent = String(format: "%.4f", result.ratio * 100)
            try StandardOutput.print("\(result.differingPixels) of \(one.width)×\(one.height) pixels differ (\(percent) %)"
                + (result.passes ? (result.differingPixels > 0 ? ", within the tolerances" : "") : ""))
        }
        if !result.passes { throw ExitCode(1) }
    }

    /// Reads a PNG file once its header's size is within `--pixel-limit`, so a huge image is refused before it is decoded.
    func image(_ path: String) throws -> RGBAImage {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe) else {
            throw ImageReadError(path: path, reason: "no such file or not readable")
        }
        if let size = PNGImageSize(of: data), size.width * size.height > pixelLimit {
            throw CommandError("\(path) is \(size.text) px, more than --pixel-limit (\(pixelLimit) pixels); give a larger limit to compare it")
        }
        return try RGBAImage(png: data, name: path)
    }
}
