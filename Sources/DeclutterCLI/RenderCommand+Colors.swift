import ArgumentParser
import DeclutterClustering
import DeclutterCommandLine
import DeclutterStyle
import DeclutterSupport

extension RenderCommand {
    /// The values `--colors-for` names, split at commas, blanks around them dropped.
    func colorValues(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Refuses a `--colors` or `--colors-for` that asks for more colours than `style` and the colour-blind-safe palette
    /// have, and warns about `--colors-for` values no point has. Returns the values that take colours first: those
    /// `--colors-for` names that some point has (all it names when no point has any), so that an absent value, once
    /// warned about, is not counted among the data's values or given a colour.
    ///
    /// - Throws: ``ValidationError`` naming the option and the most colours there are.
    func checkColors(style: MarkerStyle, points: [ClusterPoint]) throws -> [String] {
        let maximum = ColorBlindPalette.maximumColors(for: style)
        if let colors, colors > maximum {
            throw ValidationError(
                "--colors must be at most \(maximum) (the \(ColorBlindPalette.colors.count)-colour colour-blind-safe palette"
                    + "\(maximum > ColorBlindPalette.colors.count ? " or style \"\(style.name)\"'s colours" : "")), got \(colors)"
            )
        }
        guard let colorsFor, let category else { return colorsFor.map(colorValues) ?? [] }
        let named = colorValues(colorsFor)
        if named.count > (colors ?? maximum) {
            throw ValidationError(
                "--colors-for names \(named.count) values, more than \(colors.map { "--colors \($0)" } ?? "the \(maximum) colours there are")"
            )
        }
        let present = Set(points.compactMap(\.category))
        let absent = named.filter { !present.contains($0) }
        if !absent.isEmpty {
            StandardError.write(
                "warning: --colors-for: no point has \(absent.nameList(quoted: true)) as its \"\(category.escapedForTerminal)\"\n"
            )
        }
        return absent.count < named.count ? named.filter(present.contains) : named
    }
}
