import ArgumentParser

/// `tiles --max-zoom`: a zoom, or `auto` for the zoom at which the data's points stand apart by a marker
/// (``MaximumZoomGuess``).
enum MaxZoomArgument: ExpressibleByArgument, Equatable, CustomStringConvertible {
    case zoom(Int)
    case auto

    init?(argument: String) {
        if argument == "auto" {
            self = .auto
        } else if let zoom = Int(argument) {
            self = .zoom(zoom)
        } else {
            return nil
        }
    }

    var description: String {
        switch self {
        case .zoom(let zoom): String(zoom)
        case .auto: "auto"
        }
    }
}
