import Foundation

/// `sprite.manifest.json`: how every name of a sprite sheet was drawn, so it can be drawn again or checked.
///
/// ```json
/// {"cluster-5-tricycle40-bicycle60": {"counts": {"bicycle": 3, "tricycle": 2}},
///  "cluster-100+-tricycle40-bicycle60": {"counts": {"bicycle": 60, "tricycle": 40}, "label": "100+"}}
/// ```
public struct SpriteManifest: Sendable, Hashable, Codable {
    /// How one name was drawn.
    public struct Entry: Sendable, Hashable, Codable {
        /// Members per category (one member in all draws a balloon marker).
        public var counts: [String: Int]
        /// The text drawn instead of the count, if any.
        public var label: String?

        /// Creates an entry.
        public init(counts: [String: Int], label: String? = nil) {
            self.counts = counts
            self.label = label
        }

        /// The members as drawing input.
        public var categoryCounts: CategoryCounts {
            CategoryCounts(counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        }
    }

    /// Entries by sprite name.
    public var entries: [String: Entry]

    /// Creates a manifest from its entries.
    public init(entries: [String: Entry]) {
        self.entries = entries
    }

    /// The manifest of a sprite plan.
    public init(icons: [SpriteIcon]) {
        var entries: [String: Entry] = [:]
        for icon in icons {
            let counts = Dictionary(icon.counts.entries.map { ($0.name, $0.count) }, uniquingKeysWith: +)
            for name in icon.names { entries[name] = Entry(counts: counts, label: icon.label) }
        }
        self.init(entries: entries)
    }

    /// Decodes the top-level object of names.
    public init(from decoder: any Decoder) throws {
        entries = try decoder.singleValueContainer().decode([String: Entry].self)
    }

    /// Encodes the top-level object of names.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(entries)
    }

    /// Sorted, pretty JSON: stable from run to run, readable in a diff.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
