import DeclutterSupport

/// A cluster query that cannot be answered.
public enum ClusterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The id names no cluster of this index.
    case noSuchCluster(Int)

    /// Names the id.
    public var description: String {
        switch self {
        case let .noSuchCluster(id): return "no cluster with id \(id)"
        }
    }
}

extension ClusterError: DeclutterError {
    /// An id that names no cluster is not found.
    public var kind: FailureKind { .notFound }

    /// The cluster id.
    public var field: String? { "cluster_id" }
}
