import Foundation

/// Compression that failed, with zlib's reason.
public struct GzipError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    init(_ description: String) { self.description = description }
}
