/// Writes one layer of a Mapbox vector tile (spec 2.1) whose features are polygons, lines or points in whole tile
/// units: the basemap's layers, which ``VectorTileEncoder`` (points only, one layer a tile) does not write.
///
/// Geometry is written as the spec's commands: `MoveTo`, `LineTo` and, for a ring, `ClosePath`, each point a zigzag
/// delta from the last, the cursor carried from ring to ring of a feature. Keys and values are written once each per
/// layer, numbered in the order they first appear.
struct GeometryLayerWriter {
    /// The spec's geometry types.
    enum GeometryType: UInt64 {
        /// `POINT`.
        case point = 1
        /// `LINESTRING`.
        case lineString = 2
        /// `POLYGON`.
        case polygon = 3
    }

    let name: String
    let extent: Int
    private var features = ProtobufWriter(capacity: 256)
    private var keys: [String] = []
    private var keyNumbers: [String: UInt64] = [:]
    private var values: [VectorTileValue] = []
    private var valueNumbers: [VectorTileValue: UInt64] = [:]

    /// The number of features written.
    private(set) var count = 0

    /// A layer named `name`, `extent` units across a tile.
    init(name: String, extent: Int) {
        self.name = name
        self.extent = extent
    }

    /// Adds one feature of `type` made of `parts` (rings closed without repeating their first point, lines, or single
    /// points), with `properties`; nothing when `parts` is empty.
    mutating func add(
        _ type: GeometryType, parts: [[(x: Int32, y: Int32)]], properties: [(String, VectorTileValue)] = []
    ) {
        guard !parts.isEmpty else { return }
        var geometry: [UInt64] = []
        var cursorX: Int64 = 0, cursorY: Int64 = 0
        func delta(_ point: (x: Int32, y: Int32)) {
            geometry.append(ProtobufWriter.zigzag(Int64(point.x) - cursorX))
            geometry.append(ProtobufWriter.zigzag(Int64(point.y) - cursorY))
            cursorX = Int64(point.x)
            cursorY = Int64(point.y)
        }
        if type == .point {
            // One MoveTo of every point: a multipoint.
            geometry.append(UInt64(parts.count) << 3 | 1)
            for part in parts { if let point = part.first { delta(point) } }
        } else {
            for part in parts {
                guard let first = part.first else { continue }
                geometry.append(1 << 3 | 1)
                delta(first)
                geometry.append(UInt64(part.count - 1) << 3 | 2)
                for point in part.dropFirst() { delta(point) }
                if type == .polygon { geometry.append(1 << 3 | 7) }
            }
        }
        var tags: [UInt64] = []
        for (key, value) in properties {
            tags.append(number(ofKey: key))
            tags.append(number(of: value))
        }
        var feature = ProtobufWriter(capacity: geometry.count * 2 + 16)
        feature.writePackedVarints(2, tags)
        feature.writeVarintField(3, type.rawValue)
        feature.writePackedVarints(4, geometry)
        features.writeBytesField(2, feature.bytes)
        count += 1
    }

    /// The layer message's bytes: name, features, keys, values, extent and version, in field order.
    var bytes: [UInt8] {
        var layer = ProtobufWriter(capacity: features.bytes.count + 64)
        layer.writeStringField(1, name)
        layer.bytes.append(contentsOf: features.bytes)
        for key in keys { layer.writeStringField(3, key) }
        for value in values {
            var message = ProtobufWriter(capacity: 16)
            value.write(to: &message)
            layer.writeBytesField(4, message.bytes)
        }
        layer.writeVarintField(5, UInt64(extent))
        layer.writeVarintField(15, 2)
        return layer.bytes
    }

    private mutating func number(ofKey key: String) -> UInt64 {
        if let number = keyNumbers[key] { return number }
        keys.append(key)
        keyNumbers[key] = UInt64(keys.count - 1)
        return UInt64(keys.count - 1)
    }

    private mutating func number(of value: VectorTileValue) -> UInt64 {
        if let number = valueNumbers[value] { return number }
        values.append(value)
        valueNumbers[value] = UInt64(values.count - 1)
        return UInt64(values.count - 1)
    }
}
