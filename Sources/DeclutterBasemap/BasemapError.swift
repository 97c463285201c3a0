import DeclutterSupport

/// Why the embedded basemap could not be read: missing from the build, or bytes that do not decode.
public struct BasemapError: DeclutterError, Sendable, Hashable {
    /// What is wrong with the file.
    public var reason: String

    /// An error saying what is wrong with the file.
    public init(_ reason: String) {
        self.reason = reason
    }

    /// A one-line explanation naming what failed.
    public var description: String { "the embedded basemap is unreadable: \(reason)" }

    /// The file ships with the program: a failure to read it is not the input's.
    public var kind: FailureKind { .internalFailure }
}
