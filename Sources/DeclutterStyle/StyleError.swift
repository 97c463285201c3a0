import DeclutterSupport

/// A style that could not be used: the file, the field path and what was wrong.
public struct StyleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The style file as given.
    public var file: String
    /// The field path, e.g. `categories[1].color`; empty for the file as a whole.
    public var path: String
    /// What was expected or what went wrong.
    public var message: String

    /// Creates an error from its parts.
    public init(file: String, path: String, message: String) {
        self.file = file
        self.path = path
        self.message = message
    }

    /// Translates a decoding failure into the field path and an expectation a person can act on.
    public init(file: String, decodingError: DecodingError) {
        let (path, message) = decodingError.explained
        self.init(file: file, path: path, message: message)
    }

    /// `file: path: message`, or `file: message` when the problem is the whole file.
    public var description: String {
        path.isEmpty ? "\(file): \(message)" : "\(file): \(path): \(message)"
    }
}

extension StyleError: DeclutterError {
    /// A style that cannot be used is bad input.
    public var kind: FailureKind { .badInput }

    /// The style.
    public var field: String? { "style" }
}
