import ArgumentParser
import DeclutterCommandLine
import DeclutterTesting
import Foundation

/// An `r,g,b` colour argument with components 0…255 (`declutter diff`'s `--aa-color`, `--diff-color`,
/// `--diff-color-alt`).
struct ColorArgument: ExpressibleByArgument {
    var color: PixelMatch.RGB

    init(_ color: PixelMatch.RGB) { self.color = color }

    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false).map {
            UInt8($0.trimmingCharacters(in: .whitespaces))
        }
        guard parts.count == 3, let red = parts[0], let green = parts[1], let blue = parts[2] else { return nil }
        color = PixelMatch.RGB(red, green, blue)
    }

    var defaultValueDescription: String { "\(color.red),\(color.green),\(color.blue)" }
}
