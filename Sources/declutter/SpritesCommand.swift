import ArgumentParser
import DeclutterCore
import DeclutterPNG
import DeclutterRender
import Foundation

/// `declutter sprites`: MapLibre/Mapbox sprite sheets for every icon a style needs.
struct SpritesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sprites",
        abstract: "Write sprite.png/sprite.json at each pixel ratio, sprite.manifest.json and sprite.svg for a style.",
        discussion: """
            Example:
              declutter sprites --style tandm --output public/sprites --ratios 1,2
            """)

    @Option(help: ArgumentHelp("A style file (JSON), or a bundled style: tandm, default, airports.", valueName: "file"))
    var style: String

    @Option(help: ArgumentHelp("The folder to write into (created if missing).", valueName: "dir"))
    var output: String

    @Option(help: ArgumentHelp("Pixel ratios, from 1, 2, 3; default: the style's sprites.ratios.", valueName: "1,2,3"))
    var ratios: String?

    // Unconditional, so that `--spacing -1` is read as a number and gets its range message.
    @Option(parsing: .unconditional, help: "Empty pixels (at @1x) between images, 0…64.")
    var spacing: Int = 0

    /// How hard the sheets are compressed.
    enum Compression: String, ExpressibleByArgument, CaseIterable {
        case fast, smallest
    }

    @Option(help: "PNG compression: fast (Declutter's deflate, about the size of zlib level 3 in a third of its time) or smallest (zlib level 9: about 28 % smaller, 40 times slower to encode).")
    var compression: Compression = .fast

    func validate() throws {
        guard (0...64).contains(spacing) else { throw ValidationError("--spacing must be in 0…64, got \(spacing)") }
        if let ratios { _ = try Self.parseRatios(ratios) }
    }

    static func parseRatios(_ text: String) throws -> [Int] {
        let values = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !values.isEmpty, values.allSatisfy({ $0.map { (1...3).contains($0) } ?? false }) else {
            throw ValidationError("--ratios must list pixel ratios from 1, 2, 3, e.g. 1,2; got \(text)")
        }
        return values.compactMap { $0 }
    }

    func run() throws {
        let style = try StyleLocator.loadCheckingFont(style)
        let ratios = try ratios.map(Self.parseRatios) ?? style.sprites.ratios
        let folder = URL(fileURLWithPath: output)
        if FileSystem.item(atPath: folder.path) == .file { throw OutputError(path: output, reason: "is a file, not a folder") }
        let progress = ProgressBar(label: "sprites")
        let encoder = compression == .fast ? PNGEncoder() : PNGEncoder(level: 9)
        let sheet = try SpriteSheetBuilder(style: style).build(ratios: ratios, spacing: spacing, encoder: encoder) { done, total in
            progress.update(done, of: total)
        }
        progress.finish()
        // The folder is made only now, with the files, so that a failure leaves no empty folder behind.
        try FileSystem.writeAllAtomically(sheet.files, into: folder, creatingFolder: true)
        let names = sheet.files.map(\.name).joined(separator: ", ")
        print("wrote \(names) to \(output): \(sheet.nameCount) names, \(sheet.imageCount) images, "
            + String(format: "%.1f %% fill", sheet.fill * 100))
    }
}

/// A one-line progress bar on stderr when it is a terminal; silent when piped.
final class ProgressBar {
    private let label: String
    private let enabled = isatty(STDERR_FILENO) == 1
    private var lastDrawn = -1

    init(label: String) { self.label = label }

    func update(_ done: Int, of total: Int) {
        guard enabled, total > 0 else { return }
        let percent = done * 100 / total
        guard percent != lastDrawn else { return }
        lastDrawn = percent
        let width = 30, filled = width * done / total
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        FileHandle.standardError.write(Data("\r\(label) \(bar) \(done)/\(total)".utf8))
    }

    func finish() {
        guard enabled, lastDrawn >= 0 else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}
