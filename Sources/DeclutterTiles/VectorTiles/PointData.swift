import DeclutterClustering
import DeclutterStyle

/// Each point's properties, id and sprite as a tile writes them, worked out once for a whole tileset: keys and
/// strings as vocabulary numbers, so that a tile writes a point with array lookups only.
struct PointData: Sendable {
    /// A property value: a vocabulary string, or another value.
    enum Value: Sendable {
        case string(Int32)
        case other(VectorTileValue)
    }

    /// What a tile needs of one point, in one record so that a point read at random costs one cache miss here.
    struct Record: Sendable {
        /// The feature id; `UInt64.max` for none (JSON numbers never reach it).
        var id: UInt64
        /// Where its properties start in ``properties``; they end where the next point's start.
        var start: Int32
        /// Its sprite as a vocabulary string, -1 for none.
        var sprite: Int32
    }

    /// A point's property: its vocabulary key and its value.
    struct Property: Sendable {
        var key: Int32
        var value: Value
    }

    /// One record a point, and one more whose start ends the last point's properties.
    private let records: [Record]
    /// Every point's properties, one point after another.
    private let properties: [Property]

    /// Works out every point, adding their keys and strings to `vocabulary` and their types to `fieldTypes`; with
    /// `generateId` a point's id is its index (``ClusterOptions/generateId``), else its own whole number id.
    init(
        points: [ClusterPoint], generateId: Bool, style: MarkerStyle, spriteNames: SpriteNames, keys fixed: FixedKeys,
        vocabulary: inout VectorTileVocabulary, fieldTypes: inout [String: VectorTileFieldType]
    ) {
        var records: [Record] = [], properties: [Property] = []
        records.reserveCapacity(points.count + 1)
        var markers: [String: Int32] = [:]
        let firstCategory = style.categories.first?.name
        for (position, point) in points.enumerated() {
            var record = Record(id: .max, start: Int32(properties.count), sprite: -1)
            for (key, json) in point.properties.members where !ReservedPointKeys.set.contains(key) {
                guard let value = VectorTileValue(json: json) else { continue }
                if case let .string(text) = value {
                    properties.append(Property(key: vocabulary.key(key), value: .string(vocabulary.string(text))))
                } else {
                    properties.append(Property(key: vocabulary.key(key), value: .other(value)))
                }
                fieldTypes[key] = fieldTypes[key].map { $0.merged(with: value.fieldType) } ?? value.fieldType
            }
            if generateId {
                record.id = UInt64(position)
            } else if case let .number(id)? = point.id, id >= 0, id == id.rounded(), id <= 9_007_199_254_740_992 {
                record.id = UInt64(id)
            }
            if let category = point.category ?? firstCategory {
                if let known = markers[category] {
                    record.sprite = known
                } else {
                    let number = spriteNames.marker(category: category).map { vocabulary.string($0) } ?? -1
                    markers[category] = number
                    record.sprite = number
                }
            }
            records.append(record)
        }
        records.append(Record(id: .max, start: Int32(properties.count), sprite: -1))
        self.records = records
        self.properties = properties
    }

    /// Writes point `point` at (x, y); `extra` adds properties of the tileset's own before the feature ends.
    @inline(__always)
    func write(
        point: Int, x: Int32, y: Int32, keys fixed: FixedKeys, into encoder: inout VectorTileEncoder,
        extra: (inout VectorTileEncoder) -> Void = { _ in }
    ) {
        let record = records[point], end = Int(records[point + 1].start)
        encoder.beginPoint(x: x, y: y, id: record.id == .max ? nil : record.id)
        for property in Int(record.start)..<end {
            switch properties[property].value {
            case let .string(string): encoder.add(key: properties[property].key, string: string)
            case let .other(value): encoder.add(key: properties[property].key, value)
            }
        }
        if record.sprite >= 0 { encoder.add(key: fixed.sprite, string: record.sprite) }
        extra(&encoder)
        encoder.endPoint()
    }
}
