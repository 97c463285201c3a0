/// Keys and string values known before any tile is encoded, numbered once for a whole tileset, so that an encoder
/// finds a tile's own numbering for them by array lookups instead of hashing a string for every feature.
///
/// Read-only once built, so every core's encoder shares one.
public struct VectorTileVocabulary: Sendable {
    /// Keys by number.
    public private(set) var keys: [String] = []
    /// String values by number.
    public private(set) var strings: [String] = []
    private var keyNumbers: [String: Int32] = [:]
    private var stringNumbers: [String: Int32] = [:]
    /// Each string value's `Value` message, encoded once: `encodedStrings[stringStarts[n]..<stringStarts[n + 1]]`.
    private(set) var encodedStrings: [UInt8] = []
    private(set) var stringStarts: [Int] = [0]

    /// An empty vocabulary.
    public init() {}

    /// The number of a key, adding it if new.
    @discardableResult
    public mutating func key(_ name: String) -> Int32 {
        if let number = keyNumbers[name] { return number }
        let number = Int32(keys.count)
        keys.append(name)
        keyNumbers[name] = number
        return number
    }

    /// The number of a string value, adding it if new.
    @discardableResult
    public mutating func string(_ value: String) -> Int32 {
        if let number = stringNumbers[value] { return number }
        let number = Int32(strings.count)
        strings.append(value)
        stringNumbers[value] = number
        var writer = ProtobufWriter()
        VectorTileValue.string(value).write(to: &writer)
        encodedStrings.append(contentsOf: writer.bytes)
        stringStarts.append(encodedStrings.count)
        return number
    }

    /// The number of a key already in the vocabulary.
    public func existingKey(_ name: String) -> Int32? { keyNumbers[name] }

    /// The number of a string value already in the vocabulary.
    public func existingString(_ value: String) -> Int32? { stringNumbers[value] }
}
