import ArgumentParser
import DeclutterCore
import Foundation

/// A map size `WIDTHxHEIGHT` in points (`--size`), each at least 1; `×` (as `render` prints sizes) and `X` are read
/// as `x`. The limit in pixels depends on `--scale` and the output format, so the command checks it.
struct SizeArgument: ExpressibleByArgument, Equatable {
    var width: Double
    var height: Double

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    init?(argument: String) {
        let parts = argument.lowercased().replacingOccurrences(of: "×", with: "x")
            .split(separator: "x", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let width = parts[0], let height = parts[1], width.isFinite, height.isFinite,
              width >= 1, height >= 1 else { return nil }
        self.init(width: width, height: height)
    }

    var defaultValueDescription: String { "\(JSONValue.format(width))x\(JSONValue.format(height))" }
}
