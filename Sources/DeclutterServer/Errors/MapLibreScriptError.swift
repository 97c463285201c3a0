import Foundation

/// Why `--maplibre-url` cannot be used.
public struct MapLibreScriptError: Error, Sendable, CustomStringConvertible {
    /// What was wrong.
    public var description: String
    init(_ description: String) { self.description = description }
}
