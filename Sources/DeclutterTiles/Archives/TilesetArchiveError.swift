import DeclutterSupport

/// Why a tileset archive cannot be read: not the format it claims, damaged, or holding what cannot be served.
public struct TilesetArchiveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong and what was expected.
    public var description: String
    /// Creates an error with its message.
    public init(_ description: String) { self.description = description }
}

extension TilesetArchiveError: DeclutterError {
    /// An archive that cannot be read is bad input.
    public var kind: FailureKind { .badInput }
}
