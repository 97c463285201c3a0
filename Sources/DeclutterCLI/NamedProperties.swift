import DeclutterClustering
import DeclutterCommandLine
import DeclutterMapContent

/// The check that the properties `--category`, `--group-by` and `--aggregate` name are the points' own.
enum NamedProperties {
    /// Refuses a `--category`, `--group-by` or `--aggregate` property that no point has: a misspelt column would
    /// otherwise draw every point in the style's first category, cluster nothing, or give every cluster an empty
    /// value, with at most a warning. The message names the properties the points have and the one a misspelling
    /// most likely meant. A property some point has, but with no number, stays a warning of the aggregates.
    ///
    /// - Throws: ``CommandError`` naming the option and the input.
    static func check(
        category: String?, groupBy: String?, aggregates: [ClusterAggregate] = [], in points: [ClusterPoint],
        input: String
    ) throws {
        let name = PointInputOptions.name(of: input)
        if let category, let problem = CategoryAssignment.missing(category, in: points) {
            throw CommandError("--category \(category.escapedForTerminal): \(name.escapedForTerminal): \(problem)")
        }
        if let groupBy,
            let problem = CategoryAssignment.missing(
                groupBy, in: points, purpose: "group it by", has: { $0.clusteringIdentifier != nil })
        {
            throw CommandError("--group-by \(groupBy.escapedForTerminal): \(name.escapedForTerminal): \(problem)")
        }
        if let (option, problem) = CategoryAssignment.missing(aggregates: aggregates, in: points) {
            throw CommandError("--aggregate \(option.escapedForTerminal): \(name.escapedForTerminal): \(problem)")
        }
    }
}
