import DeclutterSupport
import Foundation

/// Compression that failed, with zlib's reason.
public struct GzipError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    /// Creates an error from its message.
    public init(_ description: String) { self.description = description }
}

extension GzipError: DeclutterError {
    /// Compression that fails, or gzip data that does not inflate, is bad input.
    public var kind: FailureKind { .badInput }
}
