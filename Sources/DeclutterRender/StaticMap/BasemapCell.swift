import DeclutterGeometry
import DeclutterPlacement
import DeclutterStyle

/// One grid cell of a basemap band: its land, lakes, rivers and borders clipped to the cell, in world units.
///
/// Land and lake rings are cut along the cell's edges; filled together with the neighbouring cells' rings in one
/// path they leave no seam. Lines are cut at the edges too, a piece ending where the next one starts.
struct BasemapCell {
    /// The layers, in the order they are stored and drawn.
    enum Layer: Int, CaseIterable {
        case land, lakes, rivers, countries, states
    }

    /// A ring (land, lakes) or line (rivers, borders) and the zoom from which it is drawn.
    struct Path {
        var minZoom: Double
        var points: [(x: Double, y: Double)]
        /// The box around the points.
        var bounds: WorldBounds
    }

    /// Each layer's paths, indexed by ``Layer/rawValue``.
    var layers: [[Path]]

    /// Decodes a cell's inflated bytes; coordinates are deltas from the cell's corner in units of `unitsPerWorld`.
    init(decoding bytes: [UInt8], originX: Int, originY: Int, unitsPerWorld: Double) throws {
        var reader = BasemapFile.Reader(bytes: bytes, position: 0)
        var x = originX, y = originY
        layers = []
        for _ in Layer.allCases {
            var paths: [Path] = []
            for _ in 0..<(try reader.varint()) {
                let minZoom = Double(try reader.varint()) / 10
                for _ in 0..<(try reader.varint()) {
                    let count = try reader.varint()
                    // Every point takes at least two bytes: a count past the end is a damaged file, not an allocation.
                    guard count <= (bytes.count - reader.position) / 2 else {
                        throw RenderError.basemap("a ring runs past its cell")
                    }
                    var points: [(x: Double, y: Double)] = [], bounds = WorldBounds()
                    points.reserveCapacity(count)
                    for _ in 0..<count {
                        x += try reader.signedVarint()
                        y += try reader.signedVarint()
                        let point = (x: Double(x) / unitsPerWorld, y: Double(y) / unitsPerWorld)
                        points.append(point)
                        bounds.include(x: point.x, y: point.y)
                    }
                    paths.append(Path(minZoom: minZoom, points: points, bounds: bounds))
                }
            }
            layers.append(paths)
        }
    }

    /// The paths of one layer.
    subscript(layer: Layer) -> [Path] { layers[layer.rawValue] }
}
