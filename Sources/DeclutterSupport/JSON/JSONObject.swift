import Foundation

/// A JSON object with its keys in order.
public struct JSONObject: Sendable, Hashable {
    /// The keys in order.
    public private(set) var keys: [String] = []
    private var values: [String: JSONValue] = [:]

    /// Creates an object from key–value pairs; a repeated key keeps its first place and last value.
    public init(_ pairs: [(String, JSONValue)] = []) {
        for (key, value) in pairs { self[key] = value }
    }

    /// The value for a key.
    public subscript(key: String) -> JSONValue? {
        get { values[key] }
        set {
            if values[key] == nil, newValue != nil { keys.append(key) }
            if newValue == nil { keys.removeAll { $0 == key } }
            values[key] = newValue
        }
    }

    /// Objects are equal when they hold the same keys and values, whatever the order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool { lhs.values == rhs.values }
    /// Hashes the values, not the order.
    public func hash(into hasher: inout Hasher) { hasher.combine(values) }
}
