import ArgumentParser
import DeclutterClustering

/// `--aggregate NAME=FUNC:PROPERTY`, as `cluster`, `tiles`, `serve` and `render` take it: a value each cluster
/// carries, computed over its points' property.
enum AggregateOption {
    /// The help's words for the option.
    static let help = ArgumentHelp(
        "A value each cluster carries, computed over its points' numeric property (repeatable): FUNC one of sum, mean, min, max, count; points without a number in it are left out, counted in one warning.",
        valueName: "name=func:prop")

    /// The aggregates of the option's values.
    ///
    /// - Throws: ``ValidationError`` naming the value and what is wrong, or a name given twice.
    static func parse(_ values: [String]) throws -> [ClusterAggregate] {
        var aggregates: [ClusterAggregate] = []
        for value in values {
            do {
                let aggregate = try ClusterAggregate(parsing: value)
                guard !aggregates.contains(where: { $0.name == aggregate.name }) else {
                    throw ValidationError("--aggregate \(value): the name \(aggregate.name) is given twice")
                }
                aggregates.append(aggregate)
            } catch let error as ClusterAggregateError {
                throw ValidationError("--aggregate \(error)")
            }
        }
        return aggregates
    }

    /// Refuses aggregates whose names clash with the categories or their property (``ClusterAggregate/checkNames(_:categories:categoryProperty:)``)
    /// and returns its warnings, for standard error.
    ///
    /// - Throws: ``ValidationError`` naming the aggregate.
    static func checkNames(
        _ aggregates: [ClusterAggregate], categories: [String], categoryProperty: String?
    ) throws -> [String] {
        do {
            return try ClusterAggregate.checkNames(
                aggregates, categories: categories, categoryProperty: categoryProperty)
        } catch {
            throw ValidationError("--aggregate \(error)")
        }
    }
}
