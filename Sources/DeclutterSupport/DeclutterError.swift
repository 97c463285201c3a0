/// What kind of failure an error is, in the terms every front end answers in: the command line maps each kind to an
/// exit code, the server to an HTTP status, each in one place.
public enum FailureKind: String, Sendable, Hashable, CaseIterable {
    /// The input is malformed: not the format it claims, a field of the wrong type, a file that cannot be read.
    case badInput
    /// The input is well formed, but a value is out of range or refused: a zoom of 30, a category the style lacks.
    case outOfRange
    /// Something the input names does not exist: a style, a dataset, a cluster.
    case notFound
    /// Something the work depends on failed: a tile server that cannot be reached, tiles that did not come.
    case upstreamFailure
    /// The input asks for more than a limit allows: points, tiles, bytes, pixels.
    case limit
    /// The work failed for a reason that is not the input's: a drawing library's error, an encoder's.
    case internalFailure
}

/// An error Declutter's libraries throw: a message naming the value at fault and what was expected, and its kind.
public protocol DeclutterError: Error, CustomStringConvertible {
    /// What kind of failure this is.
    var kind: FailureKind { get }
    /// The part of a request at fault as a server names it (`camera`, `style`, `tiles`); nil when the error cannot
    /// tell, and the front end names the part it was reading.
    var field: String? { get }
}

extension DeclutterError {
    /// None: the front end names the part it was reading.
    public var field: String? { nil }
}
