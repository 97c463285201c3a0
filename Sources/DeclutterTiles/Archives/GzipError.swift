import Foundation

/// Compression that failed, with zlib's reason.
public struct GzipError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    /// Creates an error from its message.
    public init(_ description: String) { self.description = description }
}
