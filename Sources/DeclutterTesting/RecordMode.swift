import Foundation

/// When golden references are written, with swift-snapshot-testing's names and environment variable.
public enum RecordMode: String, Sendable, Hashable, CaseIterable {
    /// Never write; a missing reference fails.
    case never
    /// Write references that are missing (and fail, so the new file gets looked at); compare the rest.
    case missing
    /// Write missing references and overwrite the ones that no longer match; both fail.
    case failed
    /// Write every reference and fail.
    case all

    /// The environment variable read, the same one swift-snapshot-testing reads.
    public static let environmentVariable = "SNAPSHOT_TESTING_RECORD"

    /// The mode named by `SNAPSHOT_TESTING_RECORD`, `missing` when unset; in lower case only, as swift-snapshot-testing
    /// reads it, so that both read one value alike.
    ///
    /// - Throws: ``GoldenError`` for a value that names no mode (swift-snapshot-testing ignores it).
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws
        -> RecordMode
    {
        guard let value = environment[environmentVariable], !value.isEmpty else { return .missing }
        guard let mode = RecordMode(rawValue: value) else {
            let names = allCases.map(\.rawValue).joined(separator: ", ")
            throw GoldenError(
                "\(environmentVariable)=\(value) names no record mode; expected one of: \(names), in lower case as "
                    + "swift-snapshot-testing reads them (it ignores any other value)")
        }
        return mode
    }
}

/// A golden-image check that did not pass: the message says why and where the images are.
public struct GoldenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What happened, with the paths of the written images.
    public var description: String
    /// Creates an error with its message.
    public init(_ description: String) { self.description = description }
}
