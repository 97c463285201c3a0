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
}
