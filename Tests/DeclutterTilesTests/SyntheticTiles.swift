import DeclutterClustering
import DeclutterTiles
import Foundation

/// Deterministic fake tiles: the writers never look inside the bytes.
enum SyntheticTiles {
    /// The bytes every "ocean" tile shares, so that archives see identical tiles.
    static let ocean = Data(repeating: 0x1a, count: 40)

    /// A distinct payload for z/x/y: its name and a few bytes that depend on it.
    static func payload(z: Int, x: Int, y: Int) -> Data {
        var data = Data("tile \(z)/\(x)/\(y)".utf8)
        data.append(contentsOf: (0..<(20 + (x * 7 + y * 3) % 60)).map { UInt8(truncatingIfNeeded: $0 * (z + 1) + x) })
        return data
    }

    /// Every tile of zooms 0…4 (341 tiles); the ocean tile where x + y is divisible by 3 at zooms 3 and 4, and in the
    /// whole south-east quadrant of zoom 4 (64 consecutive tile ids).
    static func small() -> [EncodedTile] {
        var tiles: [EncodedTile] = []
        for z in 0...4 {
            for x in 0..<(1 << z) {
                for y in 0..<(1 << z) {
                    let ocean = z >= 3 && (x + y) % 3 == 0 || z == 4 && x >= 8 && y >= 8
                    tiles.append(EncodedTile(z: z, x: x, y: y, data: ocean ? Self.ocean : payload(z: z, x: x, y: y)))
                }
            }
        }
        return tiles
    }

    /// Shuffles with a fixed seed, so the writers see an arbitrary but repeatable order.
    static func shuffled(_ tiles: [EncodedTile]) -> [EncodedTile] {
        var generator = SplitMix(seed: 42)
        return tiles.shuffled(using: &generator)
    }

    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let metadata = TilesetMetadata(
        name: "clusters", description: "Clustered points", attribution: "© Test", layer: "clusters",
        fields: ["count": .number, "category": .string, "cluster": .boolean], minZoom: 0, maxZoom: 4,
        bounds: .init(west: -122.5, south: 37.25, east: -121.75, north: 38),
        center: .init(longitude: -122.125, latitude: 37.625, zoom: 3))
}
