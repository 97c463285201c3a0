/// The type of a layer's field as MBTiles' `vector_layers` describes it.
public enum VectorTileFieldType: String, Sendable, Hashable, Codable {
    /// Numbers of any field type.
    case number = "Number"
    /// Strings.
    case string = "String"
    /// Booleans.
    case boolean = "Boolean"
    /// Values of more than one type (tippecanoe's name for it).
    case mixed = "Mixed"

    /// The type of a field that holds values of both types.
    func merged(with other: VectorTileFieldType) -> VectorTileFieldType { self == other ? self : .mixed }

    /// A layer's fields: its own, then the points' properties in name order, where a property named as a field of
    /// its own merges its type into that field. Found by name through an index, since points can carry a hundred
    /// thousand distinct keys (searching the list for each took 30 s for 100,000).
    static func fields(
        _ own: [(name: String, type: VectorTileFieldType)], adding properties: [String: VectorTileFieldType]
    ) -> [(name: String, type: VectorTileFieldType)] {
        var fields = own
        let places = Dictionary(own.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        for (name, type) in properties.sorted(by: { $0.key < $1.key }) {
            if let at = places[name] {
                fields[at].type = fields[at].type.merged(with: type)
            } else {
                fields.append((name, type))
            }
        }
        return fields
    }
}
