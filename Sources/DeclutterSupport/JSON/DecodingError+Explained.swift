import Foundation

extension DecodingError {
    /// Where in the document decoding failed, as a field path (`categories[1].color`; empty for the whole document),
    /// and what was expected there, in words a person can act on.
    public var explained: (path: String, message: String) {
        switch self {
        case let .keyNotFound(key, context):
            return (Self.path(context.codingPath + [key]), "missing required field")
        case let .typeMismatch(type, context):
            // JSONValueDecoder says what it found ("got a string"); Foundation's wording is not for people.
            let found = context.debugDescription.hasPrefix("got ") ? ", \(context.debugDescription)" : ""
            return (Self.path(context.codingPath), "expected \(Self.describe(type))\(found)")
        case let .valueNotFound(type, context):
            return (Self.path(context.codingPath), "expected \(Self.describe(type)), got null")
        case let .dataCorrupted(context) where context.codingPath.isEmpty:
            let detail = (context.underlyingError as? CustomStringConvertible).map { ": \($0)" } ?? ""
            return ("", "not valid JSON (\(context.debugDescription))\(detail)")
        case let .dataCorrupted(context):
            return (Self.path(context.codingPath), context.debugDescription)
        @unknown default:
            return ("", "\(self)")
        }
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
