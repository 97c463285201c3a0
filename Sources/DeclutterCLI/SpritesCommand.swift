import ArgumentParser
import DeclutterClustering
import DeclutterCommandLine
import DeclutterGeometry
import DeclutterMap
import DeclutterPNG
import DeclutterRender
import DeclutterStyle
import DeclutterSupport
import Foundation

/// `declutter sprites`: MapLibre/Mapbox sprite sheets for every icon a style needs.
struct SpritesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sprites",
        abstract: "Write sprite.png/sprite.json at each pixel ratio, sprite.manifest.json and sprite.svg for a style.",
        discussion: """
            Example:
              declutter sprites --style tandm --output sprites --ratios 1,2
            """)

    @Option(help: ArgumentHelp("A style file (JSON), or a bundled style: tandm, default, airports.", valueName: "file"))
    var style: String

    @Option(help: ArgumentHelp("The folder to write into (created if missing).", valueName: "dir"))
    var output: String

    @Option(
        help: ArgumentHelp(
            "Pixel ratios, one or more of 1, 2, 3 separated by commas; default: the style's sprites.ratios.",
            valueName: "1,2,3"))
    var ratios: PixelRatiosArgument?

    // Unconditional, so that `--spacing -1` is read as a number and gets its range message.
    @Option(parsing: .unconditional, help: "Empty pixels (at @1x) between images, 0…64.")
    var spacing: Int = 0

    /// How hard the sheets are compressed.
    enum Compression: String, ExpressibleByArgument, CaseIterable {
        case fast, smallest
    }

    @Option(
        help:
            "PNG compression: fast (Declutter's deflate, about the size of zlib level 3 in a third of its time) or smallest (zlib level 9: about 28 % smaller, 40 times slower to encode)."
    )
    var compression: Compression = .fast

    func validate() throws {
        guard (0...64).contains(spacing) else { throw ValidationError("--spacing must be in 0…64, got \(spacing)") }
    }

    /// The texture size a sprite sheet should stay within: WebGL's MAX_TEXTURE_SIZE on nearly every device.
    static let textureLimit = 4096

    func run() throws {
        let style = try StyleLocator.loadCheckingFont(style)
        let ratios = self.ratios?.ratios ?? style.sprites.ratios
        let folder = URL(fileURLWithPath: output)
        if FileSystem.item(atPath: folder.path) == .file {
            throw OutputError(path: output, reason: "is a file, not a folder")
        }
        // Checked before the sheets are drawn, which takes seconds for a large style.
        try FileSystem.refuseOverwriting(
            SpriteSheetBuilder.fileNames(ratios: ratios).map {
                ("--output's \($0)", folder.appendingPathComponent($0).path)
            },
            inputs: [("--style", self.style)] + style.glyphImageFiles.map { ("--style's glyph image", $0) })
        let progress = ProgressBar(label: "sprites")
        let encoder = compression == .fast ? PNGEncoder() : PNGEncoder(level: 9)
        let sheet = try SpriteSheetBuilder(style: style).build(ratios: ratios, spacing: spacing, encoder: encoder) {
            done, total in
            progress.update(done, of: total)
        }
        progress.finish()
        // The folder is made only now, with the files, so that a failure leaves no empty folder behind.
        try FileSystem.writeAllAtomically(sheet.files, into: folder, creatingFolder: true)
        // WebGL draws a texture only up to the device's MAX_TEXTURE_SIZE; 4096 px is what nearly every device has.
        for ratio in Set(ratios).sorted() {
            let name = SpriteSheetBuilder.sheetNames(ratio: ratio).image
            guard let data = sheet.files.first(where: { $0.name == name })?.data, let size = PNGImageSize(of: data),
                max(size.width, size.height) > Self.textureLimit
            else { continue }
            var remedies = ratio > 1 ? ["leave \(ratio) out of --ratios"] : []
            if spacing > 0 { remedies.append("a smaller --spacing") }
            remedies.append("fewer icons: a larger sprites.shareStep, fewer sprites.exactCounts or countSteps")
            StandardError.write(
                "warning: \(name) is \(size.width)×\(size.height) px: past \(Self.textureLimit) px, some devices' "
                    + "MapLibre cannot use it as one texture (\(remedies.joined(separator: "; ")))\n")
        }
        // A sheet of a ratio not written this time is an earlier run's: MapLibre on a screen of that ratio would load
        // it, and its names and pictures are not this style's.
        let written = Set(sheet.files.map(\.name))
        let stale = (1...3).flatMap { ratio in
            let names = SpriteSheetBuilder.sheetNames(ratio: ratio)
            return [names.image, names.index]
        }.filter { !written.contains($0) && FileSystem.item(atPath: folder.appendingPathComponent($0).path) == .file }
        if !stale.isEmpty {
            StandardError.write(
                "warning: \(stale.joined(separator: ", ")) in \(output) \(stale.count == 1 ? "is" : "are") left from "
                    + "an earlier run and \(stale.count == 1 ? "does" : "do") not match this sheet; MapLibre on a screen of "
                    + "that pixel ratio loads them: delete them, or add their ratio to --ratios\n")
        }
        let names = sheet.files.map(\.name).joined(separator: ", ")
        try StandardOutput.print(
            "wrote \(names) to \(output): \(sheet.nameCount) names, \(sheet.imageCount) images, "
                + String(format: "%.1f %% fill", sheet.fill * 100))
    }
}
