import Foundation

/// A JSON value that keeps object keys in their original order, for properties passed through unchanged.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, keys in order.
    case object(JSONObject)

    /// Converts what `JSONSerialization` returns.
    public init(foundation value: Any) {
        switch value {
        case is NSNull: self = .null
        case let number as NSNumber:
            // JSONSerialization gives booleans as NSNumber too; their type code is `c`.
            if String(cString: number.objCType) == "c" {
                self = .bool(number.boolValue)
            } else {
                self = .number(number.doubleValue)
            }
        case let string as String: self = .string(string)
        case let array as [Any]: self = .array(array.map(JSONValue.init(foundation:)))
        case let dictionary as [String: Any]:
            self = .object(
                JSONObject(dictionary.keys.sorted().map { ($0, JSONValue(foundation: dictionary[$0] as Any)) }))
        default: self = .null
        }
    }

    /// The number, if this is one.
    public var number: Double? { if case let .number(value) = self { value } else { nil } }
    /// The string, if this is one.
    public var string: String? { if case let .string(value) = self { value } else { nil } }
    /// The object, if this is one.
    public var object: JSONObject? { if case let .object(value) = self { value } else { nil } }
    /// The array, if this is one.
    public var array: [JSONValue]? { if case let .array(value) = self { value } else { nil } }

    /// Compact JSON text; whole numbers print without a fraction, as JavaScript prints them.
    public var jsonText: String {
        var output = ""
        write(to: &output)
        return output
    }

    /// Appends compact JSON text.
    public func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case let .bool(value): output += value ? "true" : "false"
        case let .number(value): output += JSONValue.format(value)
        case let .string(value): JSONValue.writeString(value, to: &output)
        case let .array(values):
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += "," }
                value.write(to: &output)
            }
            output += "]"
        case let .object(object):
            output += "{"
            for (index, member) in object.members.enumerated() {
                if index > 0 { output += "," }
                JSONValue.writeString(member.key, to: &output)
                output += ":"
                member.value.write(to: &output)
            }
            output += "}"
        }
    }

    /// A number as JavaScript prints it: integers plainly, others in the shortest form that reads back the same.
    public static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e21 { return String(format: "%.0f", value) }
        var text = "\(value)"
        if let exponent = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            // Swift writes 1e-07; JavaScript writes 1e-7.
            let mantissa = text[..<exponent]
            var power = text[text.index(after: exponent)...]
            var sign = ""
            if power.first == "-" || power.first == "+" {
                sign = power.first == "-" ? "-" : "+"
                power = power.dropFirst()
            }
            while power.count > 1 && power.first == "0" { power = power.dropFirst() }
            text = "\(mantissa)e\(sign.isEmpty ? "+" : sign)\(power)"
        }
        return text
    }

    static func writeString(_ value: String, to output: inout String) {
        output += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20: output += String(format: "\\u%04x", scalar.value)
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
