/// Why an aggregate cannot be parsed.
public struct ClusterAggregateError: Error, Sendable, CustomStringConvertible {
    /// What was wrong.
    public var description: String
    init(_ description: String) { self.description = description }
}
