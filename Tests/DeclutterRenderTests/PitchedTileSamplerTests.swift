import DeclutterGeometry
import DeclutterTestSupport
import Testing

@testable import DeclutterRender

/// The pitched tile sampler's walk (spans read straight from one tile, two texels a load, channels as vector lanes)
/// gives exactly the plain arithmetic, worked out here texel by texel: each channel across by fx/256 and down by
/// fy/256, rounded down, with columns wrapping around the antimeridian, nothing off the world, the missing colour
/// where a tile did not come, and a tile of twice the size read at every other texel.
@Suite struct PitchedTileSamplerTests {
    static let missing: UInt32 = 0xFF80_7F7E

    /// Zoom 1: three of its four tiles (1, 1 did not come). Zoom 2: row 1's tiles, (2, 1) sent at 512 px.
    static let keys = [
        TileKey(z: 1, x: 0, y: 0), TileKey(z: 1, x: 1, y: 0), TileKey(z: 1, x: 0, y: 1),
        TileKey(z: 2, x: 0, y: 1), TileKey(z: 2, x: 1, y: 1), TileKey(z: 2, x: 2, y: 1), TileKey(z: 2, x: 3, y: 1),
    ]

    /// A texel's word, different in every channel, tile and place.
    static func word(_ key: TileKey, _ x: Int, _ y: Int) -> UInt32 {
        var state =
            UInt64(key.z * 1_000_003 + key.x * 10_007 + key.y * 101) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(y * 4096 + x)
        state = (state ^ (state >> 31)) &* 0xBF58_476D_1CE4_E5B9
        return UInt32(truncatingIfNeeded: state ^ (state >> 29))
    }

    static func side(_ key: TileKey) -> Int { key == TileKey(z: 2, x: 2, y: 1) ? 512 : 256 }

    func tiles() throws -> [TileKey: PitchedTileLayer.TilePixels] {
        var tiles: [TileKey: PitchedTileLayer.TilePixels] = [:]
        for key in Self.keys {
            let side = Self.side(key), surface = try Surface(imageWidth: side, height: side)
            surface.withMutablePixels { pixels, stride in
                for y in 0..<side {
                    for x in 0..<side {
                        let word = Self.word(key, x, y)
                        for channel in 0..<4 {
                            pixels[y * stride + 4 * x + channel] = UInt8(truncatingIfNeeded: word >> (8 * channel))
                        }
                    }
                }
            }
            tiles[key] = PitchedTileLayer.TilePixels(surface)
        }
        return tiles
    }

    /// The texel at integer coordinates of the zoom's plane, worked out from the tiles' definition.
    func texel(_ x: Int, _ y: Int, zoom: Int) -> UInt32 {
        guard y >= 0, y < 256 << zoom else { return 0 }
        let column = Int((Double(x) / 256).rounded(.down)), row = y / 256, count = 1 << zoom
        let key = TileKey(z: zoom, x: ((column % count) + count) % count, y: row)
        guard Self.keys.contains(key) else { return Self.missing }
        let scale = Self.side(key) / 256
        return Self.word(key, (x - column * 256) * scale, (y - row * 256) * scale)
    }

    func expected(u: Int64, v: Int64, zoom: Int) -> UInt32 {
        let x = Int((Double(u) / 65536).rounded(.down)), y = Int((Double(v) / 65536).rounded(.down))
        let fx = Int((u >> 8) & 0xFF), fy = Int((v >> 8) & 0xFF)
        func channel(_ word: UInt32, _ channel: Int) -> Int { Int((word >> (8 * channel)) & 0xFF) }
        var result: UInt32 = 0
        for c in 0..<4 {
            let above =
                (channel(texel(x, y, zoom: zoom), c) * (256 - fx) + channel(texel(x + 1, y, zoom: zoom), c) * fx) / 256
            let below =
                (channel(texel(x, y + 1, zoom: zoom), c) * (256 - fx) + channel(texel(x + 1, y + 1, zoom: zoom), c) * fx)
                / 256
            result |= UInt32((above * (256 - fy) + below * fy) / 256) << (8 * c)
        }
        return result
    }

    /// Lines in texels (start, step, count, zoom), each crossing what the walk must get right.
    static let lines: [(x: Double, y: Double, dx: Double, dy: Double, pixels: Int, zoom: Int)] = [
        (-300.2, 100.3, 0.7, 0, 1300, 1),  // across the antimeridian (columns −2, −1 wrap to 0, 1) and two tile edges
        (200.5, 180.2, 1.37, 0.61, 500, 1),  // diagonally across a column edge and a row edge, into the missing tile
        (700.9, 460.4, -2.3, -0.9, 400, 1),  // backwards, out of the missing tile and across both edges again
        (30.6, -5.5, 0, 0.5, 40, 1),  // down from off the world's north edge
        (-20.2, 255.4, 1.1, 0, 300, 1),  // along the last texel row, whose samples read the row below's tiles
        (255.25, 10, 0, 1.8, 300, 1),  // down the last texel column of a tile
        (-40.3, 300.7, 2.9, 0.37, 400, 2),  // zoom 2, through the tile sent at 512 px and on round the world
        (600.1, 500.8, 0.49, 0.02, 900, 2),  // slowly across the 512 px tile's edges
    ]

    @Test func theWalkGivesThePlainBilinearSamples() throws {
        var cache = PitchedTileLayer.TileCache(sources: try tiles(), tilePixelSize: 256, missing: Self.missing)
        var compared = 0, differing: [String] = []
        for line in Self.lines {
            let u = Int64((line.x * 65536).rounded()), v = Int64((line.y * 65536).rounded())
            let du = Int64((line.dx * 65536).rounded()), dv = Int64((line.dy * 65536).rounded())
            cache.walk(u: u, v: v, du: du, dv: dv, zoom: line.zoom, pixels: line.pixels) { index, sample in
                let want = expected(u: u + Int64(index) * du, v: v + Int64(index) * dv, zoom: line.zoom)
                let got = PitchedTileLayer.word(sample)
                compared += 1
                if got != want, differing.count < 5 {
                    differing.append(
                        "line at (\(line.x), \(line.y)) sample \(index): \(String(got, radix: 16)) for \(String(want, radix: 16))"
                    )
                }
            }
        }
        #expect(compared == 4_140)
        #expect(differing == [])
    }

    @Test func aSpanEndsAtTheLastPointInItsRange() {
        // From texel 10.5 by 0.75: 10.5, 11.25, 12.0, 12.75, 13.5 — four points up to texel 12's end (12.999…).
        #expect(PitchedTileLayer.TileCache.steps(from: 10 * 65536 + 32768, by: 49152, within: 0...12) == 4)
        // Backwards from 10.5 by 0.75 down to texel 9's start: 10.5, 9.75, 9.0.
        #expect(PitchedTileLayer.TileCache.steps(from: 10 * 65536 + 32768, by: -49152, within: 9...12) == 3)
        #expect(PitchedTileLayer.TileCache.steps(from: 5 * 65536, by: 0, within: 0...12) == .max)
    }
}
