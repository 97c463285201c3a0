import DeclutterSupport
import Foundation

/// One vector tile, already encoded as MVT and not compressed, at its place in the XYZ scheme (row 0 at the north).
public struct EncodedTile: Sendable {
    /// The zoom level, 0…30.
    public var z: Int
    /// The column, 0 at the west, below 2^z.
    public var x: Int
    /// The row, 0 at the north (XYZ, as MapLibre asks for it), below 2^z.
    public var y: Int
    /// The MVT bytes, not compressed; an empty tile is not written.
    public var data: Data

    /// Creates a tile from its place and bytes.
    public init(z: Int, x: Int, y: Int, data: Data) {
        self.z = z
        self.x = x
        self.y = y
        self.data = data
    }

    /// `z/x/y`, as messages name a tile.
    public var name: String { "\(z)/\(x)/\(y)" }

    /// Checks that the tile's place exists, so that archives never hold a tile no reader can ask for.
    func validate(in path: String) throws {
        guard (0...30).contains(z), x >= 0, y >= 0, x < 1 << z, y < 1 << z else {
            throw OutputError(
                path: path, reason: "tile \(name) is outside the tile grid (zoom 0…30, x and y below 2^zoom)")
        }
    }
}

extension EncodedTile: Hashable {}
