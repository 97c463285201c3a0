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
    /// Tiles are missing from a map that must have them all; `first` is the first one in the map's order and why.
    case missingTiles(missing: Int, of: Int, first: String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case let .tooManyTiles(needed, limit):
            return
                "the map needs \(needed) tiles, more than the limit of \(limit); use a smaller size or a higher zoom, or raise --max-tiles"
        case let .unreachable(source, reason): return "cannot reach the tile server \(source): \(reason)"
        case let .invalidSource(source, reason): return "tile source \(source): \(reason)"
        case let .missingTiles(missing, total, first):
            return
                "\(missing) of \(total) tiles are missing, first \(first); --missing-tiles grey draws them as grey squares"
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
