import ArgumentParser
import DeclutterCore

/// A colour `#RGB`, `#RRGGBB` or `#RRGGBBAA` (`--stroke`, `--fill`), as style files write colours.
struct HexColorArgument: ExpressibleByArgument, Equatable {
    var color: RGBAColor
    /// The text given, for help and messages.
    var text: String

    init?(argument: String) {
        guard let color = RGBAColor(hex: argument) else { return nil }
        self.color = color
        text = argument
    }

    var defaultValueDescription: String { text }
}
