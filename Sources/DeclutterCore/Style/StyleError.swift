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
        switch decodingError {
        case let .keyNotFound(key, context):
            self.init(file: file, path: Self.path(context.codingPath + [key]), message: "missing required field")
        case let .typeMismatch(type, context):
            // JSONValueDecoder says what it found ("got a string"); Foundation's wording is not for people.
            let found = context.debugDescription.hasPrefix("got ") ? ", \(context.debugDescription)" : ""
            self.init(file: file, path: Self.path(context.codingPath), message: "expected \(Self.describe(type))\(found)")
        case let .valueNotFound(type, context):
            self.init(file: file, path: Self.path(context.codingPath), message: "expected \(Self.describe(type)), got null")
        case let .dataCorrupted(context) where context.codingPath.isEmpty:
            let detail = (context.underlyingError as? CustomStringConvertible).map { ": \($0)" } ?? ""
            self.init(file: file, path: "", message: "not valid JSON (\(context.debugDescription))\(detail)")
        case let .dataCorrupted(context):
            self.init(file: file, path: Self.path(context.codingPath), message: context.debugDescription)
        @unknown default:
            self.init(file: file, path: "", message: "\(decodingError)")
        }
    }

    /// `file: path: message`, or `file: message` when the problem is the whole file.
    public var description: String {
        path.isEmpty ? "\(file): \(message)" : "\(file): \(path): \(message)"
    }

    /// `categories[1].color` from a coding path.
    static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.reduce(into: "") { result, key in
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                result += result.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
    }

    /// A JSON-flavoured name for a Swift type in a mismatch.
    static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is any FixedWidthInteger.Type: return "a whole number"
        case is Double.Type, is Float.Type: return "a number"
        case is [Any].Type: return "a list"
        case is [String: Any].Type: return "an object"
        default:
            let name = "\(type)"
            if name.hasPrefix("Array") { return "a list" }
            if name.hasPrefix("Dictionary") { return "an object" }
            return "a value of type \(name)"
        }
    }
}
