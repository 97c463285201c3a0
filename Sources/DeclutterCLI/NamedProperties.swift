import DeclutterClustering
import DeclutterCommandLine
import DeclutterMapContent

/// The check that the properties `--category` and `--group-by` name are the points' own.
enum NamedProperties {
    /// Refuses a `--category` or `--group-by` property that no point has: a misspelt column would otherwise draw
    /// every point in the style's first category, or cluster nothing, without a word. The message names the
    /// properties the points have and the one a misspelling most likely meant.
    ///
    /// - Throws: ``CommandError`` naming the option and the input.
    static func check(category: String?, groupBy: String?, in points: [ClusterPoint], input: String) throws {
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
    }
}
