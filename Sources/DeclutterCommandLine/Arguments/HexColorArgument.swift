import ArgumentParser
import DeclutterStyle

/// A colour `#RGB`, `#RRGGBB` or `#RRGGBBAA` (`--stroke`, `--fill`), as style files write colours.
package struct HexColorArgument: ExpressibleByArgument, Equatable {
    package var color: RGBAColor
    /// The text given, for help and messages.
    var text: String

    package init?(argument: String) {
        guard let color = RGBAColor(hex: argument) else { return nil }
        self.color = color
        text = argument
    }

    package var defaultValueDescription: String { text }
}
