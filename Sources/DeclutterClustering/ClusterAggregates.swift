import DeclutterSupport

/// The aggregates asked for a set of points, with each point's value of each property read once: what a cluster of
/// any members carries.
public struct ClusterAggregates: Sendable {
    /// The aggregates, in the order asked.
    public let aggregates: [ClusterAggregate]
    /// Each aggregate's values by point: the property as a number, NaN where it is missing or not a number.
    private let values: [[Double]]
    /// How many points lack a number, per aggregate.
    public let skipped: [Int]

    /// No aggregate.
    public static let none = ClusterAggregates([], points: [])

    /// Reads each aggregate's property of every point.
    public init(_ aggregates: [ClusterAggregate], points: [ClusterPoint]) {
        self.aggregates = aggregates
        values = aggregates.map { aggregate in
            points.map { ClusterAggregate.number($0.properties[aggregate.property]) ?? .nan }
        }
        skipped = values.map { $0.reduce(0) { $0 + ($1.isNaN ? 1 : 0) } }
    }

    /// Whether there are none.
    public var isEmpty: Bool { aggregates.isEmpty }

    /// One line for standard error per property some points lack a number in, naming the aggregates that leave
    /// them out; nil when every point has a number in every property asked.
    public var warning: String? {
        var lines: [String] = [], said: Set<String> = []
        for index in aggregates.indices where skipped[index] > 0 && said.insert(aggregates[index].property).inserted {
            let property = aggregates[index].property
            let names = aggregates.filter { $0.property == property }.map(\.name)
            lines.append(
                "warning: --aggregate: \(skipped[index]) of \(values[index].count) points have no number in \"\(property)\"; "
                    + "\(names.joined(separator: ", ")) leave\(names.count == 1 ? "s" : "") them out")
        }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }

    /// Each aggregate's value over the points `members` (indices among the points), in order; nil where the function
    /// has none (the mean, least or greatest of no number).
    public func values<Members: Sequence>(over members: Members) -> [(name: String, value: Double?)]
    where Members.Element: BinaryInteger {
        aggregates.indices.map { index in
            let aggregate = aggregates[index], column = values[index]
            var sum = 0.0, count = 0, least = Double.infinity, greatest = -Double.infinity
            for member in members {
                let value = column[Int(member)]
                guard !value.isNaN else { continue }
                sum += value
                count += 1
                least = Swift.min(least, value)
                greatest = Swift.max(greatest, value)
            }
            let value: Double?
            switch aggregate.function {
            case .sum: value = sum
            case .count: value = Double(count)
            case .mean: value = count > 0 ? sum / Double(count) : nil
            case .min: value = count > 0 ? least : nil
            case .max: value = count > 0 ? greatest : nil
            }
            return (aggregate.name, value)
        }
    }

    /// ``values(over:)`` as a JSON object, leaving out the aggregates with no value.
    public func json<Members: Sequence>(over members: Members) -> JSONObject where Members.Element: BinaryInteger {
        JSONObject(values(over: members).compactMap { entry in entry.value.map { (entry.name, JSONValue.number($0)) } })
    }
}

extension ClusterAggregate {
    /// Checks the names a cluster's properties take against each other: each category's count goes under the
    /// category's name, each aggregate under its own, and the cluster's own properties (``reservedNames``) under
    /// theirs. An aggregate named as a category, or as the property the categories come from, is refused (one value
    /// would silently replace the other); a category named as a cluster's own property is warned about, as its count
    /// cannot be carried.
    ///
    /// - Returns: a warning per such category, for the caller to print after `warning: `.
    /// - Throws: ``ClusterAggregateError`` naming the aggregate.
    public static func checkNames(
        _ aggregates: [ClusterAggregate], categories: [String], categoryProperty: String?
    ) throws(ClusterAggregateError) -> [String] {
        for aggregate in aggregates {
            if categories.contains(aggregate.name) {
                throw ClusterAggregateError(
                    "\(aggregate.name)=\(aggregate.function.rawValue):\(aggregate.property): \(aggregate.name) is a "
                        + "category, whose count each cluster carries under that name; choose another name")
            }
            if aggregate.name == categoryProperty {
                throw ClusterAggregateError(
                    "\(aggregate.name)=\(aggregate.function.rawValue):\(aggregate.property): \(aggregate.name) is the "
                        + "property the categories come from, which the points carry as text; choose another name")
            }
        }
        return categories.filter(reservedNames.contains).map { name in
            "the category \"\(name)\" has the name of a property every cluster has; clusters carry no count "
                + "for it (its points are drawn and counted all the same)"
        }
    }
}
