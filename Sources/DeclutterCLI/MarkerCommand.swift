import ArgumentParser
import DeclutterCommandLine
import DeclutterPlacement
import DeclutterRender
import DeclutterServer
import DeclutterStyle
import DeclutterSupport
import Foundation

/// `declutter marker`: draws one cluster icon, or a balloon marker when the counts total 1.
struct MarkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "marker",
        abstract: "Draw one cluster icon (or, for a single point, its balloon marker) as PNG, SVG or PDF.",
        discussion: """
            Examples:
              declutter marker --style tandm --counts bicycle=3,tricycle=2 \\
                --scale 2 --output cluster@2x.png
              declutter marker --style tandm --counts unicycle=1 --output unicycle.svg
            """)

    @Option(help: ArgumentHelp("A style file (JSON), or a bundled style: tandm, default, airports.", valueName: "file"))
    var style: String

    @Option(
        help: ArgumentHelp(
            "Members per category, each category once, e.g. bicycle=3,tricycle=2; a total of 1 draws a balloon marker.",
            valueName: "cat=n,..."))
    var counts: String

    @Option(help: ArgumentHelp("Text drawn instead of a cluster's count, e.g. 100+.", valueName: "text"))
    var label: String?

    @Option(help: "Pixels per point for PNG output: 1, 2 or 3.")
    var scale: Int = 1

    @Option(
        help: ArgumentHelp("The file to write; its extension (.png, .svg, .pdf) picks the format.", valueName: "file"))
    var output: String

    func validate() throws {
        guard (1...3).contains(scale) else { throw ValidationError("--scale must be 1, 2 or 3, got \(scale)") }
        if let label, label.isEmpty || label.count > 8 {
            // A long label is shown by its start: echoing 100,000 characters helps no one.
            let shown = label.count > 40 ? label.prefix(39) + "…" : label[...]
            throw ValidationError(
                "--label must be 1 to 8 characters, got \(label.count): \"\(String(shown).escapedForTerminal)\"")
        }
        // A tab or a line break would draw a second line spilling out of the ring.
        if let label, label.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw ValidationError(
                "--label must be one line of text without control characters, got \"\(label.escapedForTerminal)\"")
        }
    }

    func run() throws {
        let format = try OutputFormat(path: output)
        try FileSystem.refuseOverwriting([("--output", output)], inputs: [("--style", style)])
        let style = try StyleLocator.loadCheckingFont(style, outputs: [("--output", output)])
        let counts = try CategoryCounts.parse(self.counts, style: style)
        let renderer = try MarkerRenderer(style: style)
        let geometry = renderer.geometry(for: counts)
        // MapKit clusters only annotations of one clustering identifier, so such an icon is drawn as asked but no map
        // shows it.
        let present = counts.entries.filter { $0.count > 0 }.compactMap { style.category(named: $0.name) }
        let identifiers = Set(present.map { $0.clusteringIdentifier ?? "" })
        if geometry.kind != .balloon, identifiers.count > 1 {
            let named = present.map { "\($0.name) (\($0.clusteringIdentifier.map { "\"\($0)\"" } ?? "none"))" }
            StandardError.write(
                "warning: --counts mixes clustering identifiers: \(named.joined(separator: ", ")); no map clusters "
                    + "these together, as MapKit clusters only annotations of one identifier\n")
        }
        if label != nil && geometry.kind == .balloon {
            StandardError.write(
                "warning: --label is drawn on cluster icons only; a total of 1 draws a balloon marker\n")
        }
        if let label, geometry.kind != .balloon, case let missing = try renderer.unknownGlyphCount(inLabel: label),
            missing > 0
        {
            StandardError.write(
                "warning: --label \"\(label.escapedForTerminal)\": no installed font has \(missing == 1 ? "a glyph" : "glyphs") "
                    + "for \(missing) of its characters, drawn as boxes\n")
        }
        let data = try renderer.render(counts, label: label, scale: Double(scale), format: format)
        try FileSystem.writeAtomically(data, to: URL(fileURLWithPath: output))
        let pixels = format == .png ? " (\(Int(geometry.width) * scale)×\(Int(geometry.height) * scale) px)" : ""
        try StandardOutput.print(
            "wrote \(output): \(geometry.kind.rawValue) \(Int(geometry.width))×\(Int(geometry.height)) pt\(pixels)")
    }
}
