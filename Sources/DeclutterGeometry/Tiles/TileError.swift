import DeclutterSupport
import Foundation

/// Why tiles could not be had.
public enum TileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The map needs more tiles than allowed; refused before fetching any.
    case tooManyTiles(needed: Int, limit: Int)
    /// No tile could be fetched because the server could not be reached.
    case unreachable(source: String, reason: String)
    /// A tile source that cannot be opened (missing folder, not an MBTiles file, bad template).
    case invalidSource(source: String, reason: String)
    /// Tiles are missing from a map that must have them all: `first` is the first in the map's order (`z/x/y`), and
    /// `reason` why it did not come.
    case missingTiles(missing: Int, of: Int, first: String, reason: String)

    /// A one-line explanation, with the render command's way round missing tiles.
    public var description: String {
        if case .missingTiles = self { return detail + "; --missing-tiles grey draws them as grey squares" }
        return detail
    }

    /// The explanation without a command's hint: the tile server's address and the reason as it gave them.
    public var detail: String {
        switch self {
        case let .tooManyTiles(needed, limit):
            return
                "the map needs \(needed) tiles, more than the limit of \(limit); use a smaller size or a higher zoom, or raise --max-tiles"
        case let .unreachable(source, reason): return "cannot reach the tile server \(source): \(reason)"
        case let .invalidSource(source, reason): return "tile source \(source): \(reason)"
        case let .missingTiles(missing, total, first, reason):
            return "\(missing) of \(total) tiles are missing, first tile \(first): \(reason)"
        }
    }

    /// What a service tells its clients of an upstream failure: which tiles, not the tile server's address (a URL
    /// template may carry an API key) nor its answers, which go to the service's log.
    public var publicDescription: String {
        switch self {
        case .unreachable: return "cannot reach the tile server; the server's log says why"
        case let .missingTiles(missing, total, first, _):
            return
                "\(missing) of \(total) tiles could not be had from the tile server, first tile \(first); the server's log says why"
        case .tooManyTiles, .invalidSource: return description
        }
    }
}

extension TileError: DeclutterError {
    /// Too many tiles for the limit is a map out of range; a source that cannot be opened is bad input; one that cannot
    /// be reached, or tiles that did not come, an upstream failure.
    public var kind: FailureKind {
        switch self {
        case .tooManyTiles: .outOfRange
        case .invalidSource: .badInput
        case .unreachable, .missingTiles: .upstreamFailure
        }
    }

    /// The map's size for too many tiles, else the tiles.
    public var field: String? {
        if case .tooManyTiles = self { return "size" }
        return "tiles"
    }
}
