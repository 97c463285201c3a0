/// PMTiles v3 tile ids: a tile's position on the Hilbert curve of its zoom, after every tile of the zooms below
/// (spec §4.1: 0/0/0 → 0, 1/0/0 → 1, 1/0/1 → 2, 1/1/1 → 3, 1/1/0 → 4, 2/0/0 → 5, 12/3423/1763 → 19078479).
public enum PMTilesTileID {
    /// The id of tile `z/x/y` (XYZ rows, 0 at the north); z is 0…31 and x, y below 2^z.
    public static func id(z: Int, x: Int, y: Int) -> UInt64 {
        precondition(
            (0...31).contains(z) && (0..<(1 << z)).contains(x) && (0..<(1 << z)).contains(y),
            "tile \(z)/\(x)/\(y) is off the grid")
        // The tiles of zooms 0…z-1: (4^z − 1) / 3.
        var id = ((UInt64(1) << (2 * UInt64(z))) - 1) / 3
        var x = UInt64(x), y = UInt64(y)
        let n = UInt64(1) << UInt64(z)
        var s = n >> 1
        // Wikipedia's xy2d: one quadrant per bit, from the top, rotating the rest into the quadrant's frame.
        while s > 0 {
            let rx: UInt64 = x & s > 0 ? 1 : 0, ry: UInt64 = y & s > 0 ? 1 : 0
            id += s * s * ((3 * rx) ^ ry)
            rotate(n, &x, &y, rx, ry)
            s >>= 1
        }
        return id
    }

    /// The tile of an id: the inverse of ``id(z:x:y:)``.
    public static func tile(_ id: UInt64) -> (z: Int, x: Int, y: Int) {
        var z = 0, first: UInt64 = 0
        // Zoom z starts at (4^z − 1) / 3 and holds 4^z tiles.
        while z < 31, id >= first + (UInt64(1) << (2 * UInt64(z))) {
            first += UInt64(1) << (2 * UInt64(z))
            z += 1
        }
        let n = UInt64(1) << UInt64(z)
        var t = id - first, x: UInt64 = 0, y: UInt64 = 0, s: UInt64 = 1
        while s < n {
            let rx = 1 & (t / 2), ry = 1 & (t ^ rx)
            rotate(s, &x, &y, rx, ry)
            x += s * rx
            y += s * ry
            t /= 4
            s *= 2
        }
        return (z, Int(x), Int(y))
    }

    /// Flips and transposes a quadrant so the curve's sub-square starts where the previous one ended.
    private static func rotate(_ n: UInt64, _ x: inout UInt64, _ y: inout UInt64, _ rx: UInt64, _ ry: UInt64) {
        guard ry == 0 else { return }
        if rx == 1 {
            x = (n &- 1) &- x
            y = (n &- 1) &- y
        }
        swap(&x, &y)
    }
}
