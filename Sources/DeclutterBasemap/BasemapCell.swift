import DeclutterGeometry
import DeclutterSupport

/// One grid cell of a basemap band: its land, lakes, rivers and borders clipped to the cell, in world units.
///
/// Land and lake rings are cut along the cell's edges; filled together with the neighbouring cells' rings in one
/// path they leave no seam. Lines are cut at the edges too, a piece ending where the next one starts.
public struct BasemapCell: Sendable {
    /// The layers, in the order they are stored and drawn.
    public enum Layer: Int, CaseIterable, Sendable {
        /// Land polygons (1:10m land and minor islands).
        case land
        /// Lake polygons.
        case lakes
        /// River and lake centre lines.
        case rivers
        /// Country borders on land.
        case countries
        /// State and province lines.
        case states
    }

    /// A ring (land, lakes) or line (rivers, borders) and the zoom from which it is drawn.
    public struct Path: Sendable {
        /// Natural Earth's `min_zoom` (state lines from zoom 4): the lowest zoom at which the path is drawn.
        public var minZoom: Double
        /// The points in world units; a ring does not repeat its first point.
        public var points: [(x: Double, y: Double)]
        /// The box around the points.
        public var bounds: WorldBounds
        /// Twice the area a ring encloses (surveyor's formula, y down): positive for an exterior ring (clockwise on
        /// the map), negative for a hole; for a line, as if it were closed.
        public var doubleArea: Double
    }

    /// Each layer's paths, indexed by ``Layer/rawValue``.
    public var layers: [[Path]]

    /// Bytes held, for a cache's budget: the arrays' capacities.
    var bytes: Int {
        layers.reduce(layers.storageBytes) { total, paths in
            paths.reduce(total + paths.storageBytes) { total, path in total + path.points.storageBytes }
        }
    }

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
                        throw BasemapError("a ring runs past its cell")
                    }
                    var points: [(x: Double, y: Double)] = [], bounds = WorldBounds()
                    points.reserveCapacity(count)
                    // In whole units from the first point, which doubles sum exactly.
                    var area = 0.0, startX = x, startY = y, previous = (x: 0.0, y: 0.0)
                    for index in 0..<count {
                        x += try reader.signedVarint()
                        y += try reader.signedVarint()
                        let point = (x: Double(x) / unitsPerWorld, y: Double(y) / unitsPerWorld)
                        points.append(point)
                        bounds.include(x: point.x, y: point.y)
                        if index == 0 { (startX, startY) = (x, y) }
                        let local = (x: Double(x - startX), y: Double(y - startY))
                        area += previous.x * local.y - local.x * previous.y
                        previous = local
                    }
                    paths.append(
                        Path(
                            minZoom: minZoom, points: points, bounds: bounds,
                            doubleArea: area / (unitsPerWorld * unitsPerWorld)))
                }
            }
            layers.append(paths)
        }
    }

    /// The paths of one layer.
    public subscript(layer: Layer) -> [Path] { layers[layer.rawValue] }
}
