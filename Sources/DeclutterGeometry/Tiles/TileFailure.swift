import DeclutterSupport
import Foundation

/// Why one tile is missing.
public struct TileFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What happened.
    public var reason: String
    /// Creates a failure.
    public init(_ reason: String) { self.reason = reason }
    /// The reason.
    public var description: String { reason }
}

extension TileFailure: DeclutterError {
    /// A tile that did not come is the tile source's failure.
    public var kind: FailureKind { .upstreamFailure }

    /// The tiles.
    public var field: String? { "tiles" }
}
