import DeclutterCore

/// Each point's properties, id and sprite as a tile writes them, worked out once for a whole tileset: keys and
/// strings as vocabulary numbers, so that a tile writes a point with array lookups only.
struct PointData: Sendable {
    /// A property value: a vocabulary string, or another value.
    enum Value: Sendable {
        case string(Int32)
        case other(VectorTileValue)
    }

    /// Point `p`'s properties are `keys[starts[p]..<starts[p + 1]]` with `values` alike.
    private let starts: [Int32]
    private let keys: [Int32]
    private let values: [Value]
    /// Each point's feature id; `UInt64.max` for none (JSON numbers never reach it).
    private let ids: [UInt64]
    /// Each point's sprite as a vocabulary string, -1 for none.
    private let sprites: [Int32]

    /// Works out every point of `index`, adding their keys and strings to `vocabulary` and their types to `fieldTypes`.
    init(index: ClusterIndex, style: MarkerStyle, spriteNames: SpriteNames, keys fixed: FixedKeys,
         vocabulary: inout VectorTileVocabulary, fieldTypes: inout [String: VectorTileFieldType]) {
        let points = index.points
        var starts: [Int32] = [0], keys: [Int32] = [], values: [Value] = []
        starts.reserveCapacity(points.count + 1)
        var ids = [UInt64](repeating: .max, count: points.count), sprites = [Int32](repeating: -1, count: points.count)
        var markers: [String: Int32] = [:]
        let firstCategory = style.categories.first?.name
        for (position, point) in points.enumerated() {
            for key in point.properties.keys where key != "sprite" {
                guard let json = point.properties[key], let value = VectorTileValue(json: json) else { continue }
                keys.append(vocabulary.key(key))
                if case let .string(text) = value {
                    values.append(.string(vocabulary.string(text)))
                } else {
                    values.append(.other(value))
                }
                fieldTypes[key] = fieldTypes[key].map { $0.merged(with: value.fieldType) } ?? value.fieldType
            }
            starts.append(Int32(keys.count))
            if index.options.generateId {
                ids[position] = UInt64(position)
            } else if case let .number(id)? = point.id, id >= 0, id == id.rounded(), id <= 9_007_199_254_740_992 {
                ids[position] = UInt64(id)
            }
            if let category = point.category ?? firstCategory {
                if let known = markers[category] {
                    sprites[position] = known
                } else {
                    let number = spriteNames.marker(category: category).map { vocabulary.string($0) } ?? -1
                    markers[category] = number
                    sprites[position] = number
                }
            }
        }
        self.starts = starts
        self.keys = keys
        self.values = values
        self.ids = ids
        self.sprites = sprites
    }

    /// Writes point `point` at (x, y).
    @inline(__always)
    func write(point: Int, x: Int32, y: Int32, keys fixed: FixedKeys, into encoder: inout VectorTileEncoder) {
        let id = ids[point]
        encoder.beginPoint(x: x, y: y, id: id == .max ? nil : id)
        for property in Int(starts[point])..<Int(starts[point + 1]) {
            switch values[property] {
            case let .string(string): encoder.add(key: keys[property], string: string)
            case let .other(value): encoder.add(key: keys[property], value)
            }
        }
        if sprites[point] >= 0 { encoder.add(key: fixed.sprite, string: sprites[point]) }
        encoder.endPoint()
    }
}
