import DeclutterSupport

/// Why a tileset cannot be made as asked.
public struct TilesetError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong and what was expected.
    public var description: String
    /// Creates an error with its message.
    public init(_ description: String) { self.description = description }
}

extension TilesetError: DeclutterError {
    /// Tileset settings outside their ranges are out of range.
    public var kind: FailureKind { .outOfRange }
}
