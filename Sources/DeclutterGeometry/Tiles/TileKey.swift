import Foundation

/// One tile of the XYZ scheme: zoom, column from the antimeridian eastward, row from the north.
public struct TileKey: Sendable, Hashable, CustomStringConvertible {
    /// Zoom level.
    public var z: Int
    /// Column, 0…2^z − 1.
    public var x: Int
    /// Row from the top (XYZ, not TMS), 0…2^z − 1.
    public var y: Int

    /// Creates a key.
    public init(z: Int, x: Int, y: Int) {
        self.z = z
        self.x = x
        self.y = y
    }

    /// `z/x/y`.
    public var description: String { "\(z)/\(x)/\(y)" }
}
