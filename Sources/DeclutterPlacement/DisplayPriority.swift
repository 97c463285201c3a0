import DeclutterSupport

/// MapKit's display priority: a number where higher wins a collision; `required` views are always shown.
public struct DisplayPriority: Sendable, Hashable, Comparable {
    /// The priority value; MapKit's named levels are 1000, 750 and 250.
    public var rawValue: Float

    /// Creates a priority from its numeric value.
    public init(_ rawValue: Float) { self.rawValue = rawValue }

    /// Always shown (1000).
    public static let required = DisplayPriority(1000)
    /// MapKit's `defaultHigh` (750).
    public static let defaultHigh = DisplayPriority(750)
    /// MapKit's `defaultLow` (250).
    public static let defaultLow = DisplayPriority(250)

    /// Orders by value.
    public static func < (lhs: DisplayPriority, rhs: DisplayPriority) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The named levels as they are written in styles and scenes.
    static let names: [String: DisplayPriority] = [
        "required": .required, "defaultHigh": .defaultHigh, "defaultLow": .defaultLow,
    ]
}

extension DisplayPriority: Codable {
    /// Decodes a number in 0…1000 or one of `"required"`, `"defaultHigh"`, `"defaultLow"`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let expected = "a number in 0…1000 or one of \"required\", \"defaultHigh\", \"defaultLow\""
        if let name = try? container.decode(String.self) {
            guard let named = DisplayPriority.names[name] else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "expected \(expected), got \"\(name)\"")
            }
            self = named
        } else if let value = try? container.decode(Float.self), (0...1000).contains(value) {
            self.init(value)
        } else if let value = try? container.decode(Double.self) {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected \(expected), got \(value.messageText)")
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected \(expected)")
        }
    }

    /// Encodes the name for a named level, else the number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let name = DisplayPriority.names.first(where: { $0.value == self })?.key {
            try container.encode(name)
        } else {
            try container.encode(rawValue)
        }
    }
}
