import DeclutterSupport

/// Why drawing or encoding failed.
public enum RenderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Cairo reported a failure status during an operation.
    case cairo(operation: String, status: String)
    /// Pango could not create what was asked for.
    case pango(operation: String)
    /// An image size outside the limits, refused before anything was allocated.
    case sizeOutOfRange(width: Int, height: Int, limit: Int)
    /// An image file that could not be decoded.
    case unreadableImage(path: String, reason: String)
    /// PNG encoding failed inside zlib.
    case encoding(String)
    /// An output file name whose extension names no supported format.
    case unknownFormat(path: String)
    /// The embedded basemap is missing from the build or its bytes do not decode.
    case basemap(String)
    /// Overlays whose lines cross each other more than `limit` times on the map (``OverlayCrossings``), refused
    /// before anything was drawn.
    case tooManyCrossings(limit: Int)

    /// A one-line explanation naming what failed.
    public var description: String {
        switch self {
        case let .cairo(operation, status): return "cairo failed to \(operation): \(status)"
        case let .pango(operation): return "pango failed to \(operation)"
        case let .sizeOutOfRange(width, height, limit):
            return "an image of \(width)×\(height) px is outside the limits (1…\(limit) px per side)"
        case let .unreadableImage(path, reason): return "cannot read image \(path): \(reason)"
        case let .encoding(reason): return "PNG encoding failed: \(reason)"
        case let .unknownFormat(path):
            return "\(path): unknown output format; expected a file name ending in .png, .svg or .pdf"
        case let .basemap(reason): return "the embedded basemap is unreadable: \(reason)"
        case let .tooManyCrossings(limit):
            return "the overlays' lines cross each other more than \(limit) times on the map, the limit: "
                + "a line zigzagging across a map costs far more to draw than its vertices say; draw simpler lines"
        }
    }
}

extension RenderError: DeclutterError {
    /// A size or crossings over the limit are a limit; an unreadable image or unknown format bad input; the drawing
    /// libraries' failures internal.
    public var kind: FailureKind {
        switch self {
        case .sizeOutOfRange, .tooManyCrossings: .limit
        case .unreadableImage, .unknownFormat: .badInput
        case .cairo, .pango, .encoding, .basemap: .internalFailure
        }
    }
}
