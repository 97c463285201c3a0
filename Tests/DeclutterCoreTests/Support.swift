@testable import DeclutterCore
import Foundation

/// SplitMix64, so every run of a test sees the same random scenes.
struct SplitMix64 {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A whole number in 0..<bound.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    /// A number in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    /// A normally distributed number (Box–Muller).
    mutating func normal() -> Double { (-2 * log(max(unit(), 1e-300))).squareRoot() * cos(2 * Double.pi * unit()) }
}

/// Reads `text` as the file `name` (its extension picks the format).
func readPoints(_ text: String, name: String = "points.csv", _ reader: PointReader = PointReader()) throws -> PointReader.Result {
    try reader.read(Data(text.utf8), name: name)
}

/// The error reading `text` throws, as printed; nil when it reads.
func readingMessage(_ text: String, name: String = "points.csv", _ reader: PointReader = PointReader()) -> String? {
    do {
        _ = try readPoints(text, name: name, reader)
        return nil
    } catch {
        return "\(error)"
    }
}

/// The test target's fixtures: supercluster's, mercantile's and TANDm's, each with its licence.
let coreFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

/// The package's `Styles/` folder, found from this file.
let stylesFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Styles")

/// A seeded generator of doubles in 0..<1 (a 64-bit linear congruential generator), so random scenes repeat.
struct TestRandom {
    var seed: UInt64

    mutating func next() -> Double {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(seed >> 11) / Double(1 << 53)
    }
}

/// The TANDm sample: its style and its points.
func tandmSample() throws -> (style: MarkerStyle, read: PointReader.Result) {
    (try MarkerStyle.load(contentsOf: stylesFolder.appendingPathComponent("tandm.json")),
     try PointReader().read(contentsOf: coreFixtures.appendingPathComponent("tandm/Data.plist")))
}
