import Foundation

/// A built sprite sheet: the files to write and what went into them.
public struct SpriteSheet: Sendable {
    /// One MapLibre/Mapbox `sprite.json` entry, in pixels of its sheet.
    public struct Entry: Sendable, Hashable, Codable {
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int
        /// Left edge in the sheet.
        public var x: Int
        /// Top edge in the sheet.
        public var y: Int
        /// Pixels per point: 1, 2 or 3.
        public var pixelRatio: Int
    }

    /// File names (`sprite.png`, `sprite@2x.json`, `sprite.manifest.json`, `sprite.svg`, …) and their bytes.
    public var files: [(name: String, data: Data)]
    /// The `sprite.json` entries by pixel ratio.
    public var index: [Int: [String: Entry]]
    /// Names in the sheet.
    public var nameCount: Int
    /// Distinct images drawn (names that look alike share one).
    public var imageCount: Int
    /// The share of the @1x sheet covered by images.
    public var fill: Double
}
