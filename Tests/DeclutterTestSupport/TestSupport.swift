import DeclutterGeometry
import Foundation

/// SplitMix64, so every run of a test sees the same random scenes.
public struct SplitMix64: RandomNumberGenerator {
    /// The generator's state; the seed at first.
    public var state: UInt64

    /// A generator starting from `state`.
    public init(state: UInt64) { self.state = state }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A whole number in 0..<bound.
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    /// A number in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    /// A normally distributed number (Box–Muller).
    public mutating func normal() -> Double {
        (-2 * log(max(unit(), 1e-300))).squareRoot() * cos(2 * Double.pi * unit())
    }
}

/// A seeded generator of doubles in 0..<1 (a 64-bit linear congruential generator), so random scenes repeat.
public struct TestRandom {
    /// The generator's state; the seed at first.
    public var seed: UInt64

    /// A generator starting from `seed`.
    public init(seed: UInt64) { self.seed = seed }

    /// The next number in 0..<1.
    public mutating func next() -> Double {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(seed >> 11) / Double(1 << 53)
    }
}

/// The package's root folder, found from this file (through the links of the sanitizer package's `Tests/`).
public let packageRoot = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

/// The domain tests' fixtures: supercluster's, mercantile's, MapLibre's and TANDm's, each with its licence.
public let coreFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

/// The package's `Styles/` folder.
public let stylesFolder = packageRoot.appendingPathComponent("Styles")

/// An 800×600 map at zoom 13 whose top-left corner is 10 points into tile 13/4400/2686: twelve tiles cover it.
public func alignedTileCamera(bearing: Double = 0) throws -> MapCamera {
    let size = 256 * pow(2, 13.0)
    return try MapCamera(
        center: Coordinate(
            longitude: WebMercator.longitude(x: (4400 * 256 + 410) / size),
            latitude: WebMercator.latitude(y: (2686 * 256 + 310) / size)),
        zoom: 13, bearing: bearing, width: 800, height: 600)
}
