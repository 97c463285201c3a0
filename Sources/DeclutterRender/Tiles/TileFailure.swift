import DeclutterCore
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
