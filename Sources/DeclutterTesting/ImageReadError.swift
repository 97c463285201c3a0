/// An image file or PNG bytes that could not be read.
public struct ImageReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file, or what the bytes were named.
    public var path: String
    /// Why: missing, not a PNG, damaged.
    public var reason: String

    /// Creates the error for `path`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// A one-line explanation naming the file.
    public var description: String {
        // Bytes named for their part ("the expected image") read as a phrase already.
        "cannot read \(path.hasPrefix("the ") ? path : "image \(path)"): \(reason)"
    }
}
