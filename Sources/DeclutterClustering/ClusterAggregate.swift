import DeclutterSupport
import Foundation

/// A value computed over each cluster's points from one of their properties (`--aggregate NAME=FUNC:PROPERTY`), as
/// supercluster's `map`/`reduce`, MapLibre's `clusterProperties` and tippecanoe's `--accumulate-attribute` make them.
public struct ClusterAggregate: Sendable, Hashable {
    /// How the members' values combine.
    public enum Function: String, Sendable, CaseIterable {
        /// Their sum (0 when none has a number).
        case sum
        /// Their mean; none when none has a number.
        case mean
        /// The least; none when none has a number.
        case min
        /// The greatest; none when none has a number.
        case max
        /// How many members have a number.
        case count
    }

    /// The property the cluster carries the value in.
    public var name: String
    public var function: Function
    /// The points' property it is computed from.
    public var property: String

    /// Creates an aggregate.
    public init(name: String, function: Function, property: String) {
        self.name = name
        self.function = function
        self.property = property
    }

    /// Names a cluster feature has already, which an aggregate cannot take.
    public static let reservedNames: Set<String> = [
        "cluster", "cluster_id", "point_count", "point_count_abbreviated", "clustering_identifier", "sprite",
        "label_size", "expansion_zoom", "hidden_count", "categories",
    ]

    /// Parses `NAME=FUNC:PROPERTY`.
    ///
    /// - Throws: A message naming the part that is wrong and what was expected.
    public init(parsing text: String) throws(ClusterAggregateError) {
        let shape =
            "expected NAME=FUNC:PROPERTY with FUNC one of \(Function.allCases.map(\.rawValue).joined(separator: ", "))"
        guard let equals = text.firstIndex(of: "="), let colon = text[equals...].firstIndex(of: ":") else {
            throw ClusterAggregateError("\(text.prefix(100)): \(shape)")
        }
        let name = String(text[..<equals]), functionText = String(text[text.index(after: equals)..<colon])
        let property = String(text[text.index(after: colon)...])
        guard !name.isEmpty, !property.isEmpty else {
            throw ClusterAggregateError(
                "\(text.prefix(100)): the \(name.isEmpty ? "name" : "property") is empty; \(shape)")
        }
        guard let function = Function(rawValue: functionText) else {
            throw ClusterAggregateError(
                "\(text.prefix(100)): unknown function \"\(functionText.prefix(20))\"; \(shape)")
        }
        guard !Self.reservedNames.contains(name) else {
            throw ClusterAggregateError(
                "\(text.prefix(100)): \(name) is a property every cluster has already; choose another name")
        }
        self.init(name: name, function: function, property: property)
    }

    /// A point's value of the property: a number, or text that reads as one (a CSV column); nil otherwise.
    static func number(_ value: JSONValue?) -> Double? {
        switch value {
        case .number(let number)?: return number.isFinite ? number : nil
        case .string(let text)?:
            guard let number = Double(decimalText: text.trimmingCharacters(in: .whitespaces)), number.isFinite else {
                return nil
            }
            return number
        default: return nil
        }
    }
}
