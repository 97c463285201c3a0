import DeclutterTiles
import Testing

@Suite struct PMTilesTileIDTests {
    /// The spec's table (§4.1), the last tile of zoom 2, and a zoom-20 tile whose id the Python `pmtiles` package
    /// gives.
    @Test(arguments: [
        (0, 0, 0, UInt64(0)), (1, 0, 0, 1), (1, 0, 1, 2), (1, 1, 1, 3), (1, 1, 0, 4), (2, 0, 0, 5),
        (2, 3, 0, 20), (12, 3423, 1763, 19_078_479), (20, 345_678, 654_321, 885_923_423_404),
    ])
    func specValues(z: Int, x: Int, y: Int, id: UInt64) {
        #expect(PMTilesTileID.id(z: z, x: x, y: y) == id)
        #expect(PMTilesTileID.tile(id) == (z, x, y))
    }

    /// Every tile of zooms 0…6 maps to the next id in turn (the ids of a zoom are a permutation of its range) and back.
    @Test func roundTripCoversEveryID() {
        var seen = Set<UInt64>()
        for z in 0...6 {
            for x in 0..<(1 << z) {
                for y in 0..<(1 << z) {
                    let id = PMTilesTileID.id(z: z, x: x, y: y)
                    seen.insert(id)
                    #expect(PMTilesTileID.tile(id) == (z, x, y))
                }
            }
        }
        // 1 + 4 + … + 4^6 = 5,461 tiles own exactly the ids 0…5,460.
        #expect(seen.count == 5_461)
        #expect(seen.max() == 5_460)
        #expect(PMTilesTileID.tile(5_461) == (7, 0, 0))
    }

    /// The corners of zoom 30, the deepest zoom the writers take.
    @Test func deepestZoom() {
        let last = (1 << 30) - 1
        for (x, y) in [(0, 0), (last, 0), (0, last), (last, last), (123_456_789, 987_654_321)] {
            #expect(PMTilesTileID.tile(PMTilesTileID.id(z: 30, x: x, y: y)) == (30, x, y))
        }
        #expect(PMTilesTileID.id(z: 30, x: 0, y: 0) == ((UInt64(1) << 60) - 1) / 3)
    }
}
