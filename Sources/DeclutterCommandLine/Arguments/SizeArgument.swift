import ArgumentParser
import DeclutterSupport
import Foundation

/// A map size `WIDTHxHEIGHT` in points (`--size`), each at least 1; `×` (as `render` prints sizes) and `X` are read
/// as `x`. The limit in pixels depends on `--scale` and the output format, so the command checks it.
package struct SizeArgument: ExpressibleByArgument, Equatable {
    package var width: Double
    package var height: Double

    package init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    package init?(argument: String) {
        let parts = argument.lowercased().replacingOccurrences(of: "×", with: "x")
            .split(separator: "x", omittingEmptySubsequences: false).map {
                Double($0.trimmingCharacters(in: .whitespaces))
            }
        guard parts.count == 2, let width = parts[0], let height = parts[1], width.isFinite, height.isFinite,
            width >= 1, height >= 1
        else { return nil }
        self.init(width: width, height: height)
    }

    package var defaultValueDescription: String { "\(JSONValue.format(width))x\(JSONValue.format(height))" }
}
