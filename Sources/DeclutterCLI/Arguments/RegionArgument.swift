import ArgumentParser
import DeclutterCommandLine
import DeclutterRender

/// An `x,y,width,height` rectangle in pixels (`declutter diff --ignore`): whole numbers, width and height above 0.
struct RegionArgument: ExpressibleByArgument {
    /// `[x, y, width, height]`.
    var rectangle: [Int]

    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false).map {
            Int($0.trimmingCharacters(in: .whitespaces))
        }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let width = parts[2], let height = parts[3],
            width > 0, height > 0, abs(x) <= 1 << 30, abs(y) <= 1 << 30, width <= 1 << 30, height <= 1 << 30
        else { return nil }
        rectangle = [x, y, width, height]
    }

    var defaultValueDescription: String { rectangle.map(String.init).joined(separator: ",") }
}
