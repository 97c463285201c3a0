import DeclutterClustering
import DeclutterGeometry
import Foundation

/// Encodes a Mapbox vector tile (spec 2.1) of one layer of point features.
///
/// The layer is version 2 with the given name and extent. Each feature has an optional id (uint64), type POINT and
/// the geometry `MoveTo(1)` with its position as zigzag deltas from (0, 0); its properties index the layer's keys
/// and values, each key and each value written once however many features use it (values by type and content:
/// `uint 1` and `double 1.5` are different values, two `"DE"` strings one). Fields are written in field number
/// order (name, features, keys, values, extent, version), as Protocol Buffers' own serialisers do.
///
/// An encoder is reused tile after tile: ``finish()`` returns a tile and starts the next, keeping its buffers.
/// With a ``VectorTileVocabulary`` the keys and string values it holds are numbered by array lookups instead of
/// hashing.
public struct VectorTileEncoder {
    /// The layer's name.
    public let layerName: String
    /// Tile units across the tile. Default 4096.
    public let extent: Int
    /// The keys and string values numbered for a whole tileset.
    public let vocabulary: VectorTileVocabulary

    // This tile's layer so far: encoded features, keys and values (each with its field tag), and their numbers.
    private var features = ProtobufWriter(capacity: 1024)
    private var keys = ProtobufWriter(capacity: 256)
    private var values = ProtobufWriter(capacity: 256)
    private var output = ProtobufWriter(capacity: 2048)
    private var keyCount: UInt32 = 0
    private var valueCount: UInt32 = 0
    private var featureCount = 0
    // Vocabulary entries' numbers in this tile, valid where their stamp is this tile's.
    private var tile: UInt32 = 1
    private var keyStamps: [UInt32], keyNumbers: [UInt32]
    private var stringStamps: [UInt32], stringNumbers: [UInt32]
    // Keys and values outside the vocabulary, numbered by content for this tile.
    private var otherKeys: [String: UInt32] = [:]
    private var otherValues: [VectorTileValue: UInt32] = [:]
    // The feature being written.
    private var tags: [UInt64] = []
    private var featureId: UInt64?
    private var featureX: Int32 = 0, featureY: Int32 = 0
    private var inFeature = false

    /// Creates an encoder for a layer named `layerName`, `extent` units across.
    public init(layerName: String, extent: Int = 4096, vocabulary: VectorTileVocabulary = VectorTileVocabulary()) {
        self.layerName = layerName
        self.extent = extent
        self.vocabulary = vocabulary
        keyStamps = [UInt32](repeating: 0, count: vocabulary.keys.count)
        keyNumbers = keyStamps
        stringStamps = [UInt32](repeating: 0, count: vocabulary.strings.count)
        stringNumbers = stringStamps
    }

    /// The number of features added to this tile so far.
    public var count: Int { featureCount }

    /// Adds a point feature at (x, y) in tile units (outside 0…extent within the buffer), with its properties in
    /// order; a repeated key is written again, as given.
    public mutating func addPoint(
        x: Int32, y: Int32, id: UInt64? = nil, properties: [(key: String, value: VectorTileValue)] = []
    ) {
        beginPoint(x: x, y: y, id: id)
        for (key, value) in properties { add(key, value) }
        endPoint()
    }

    /// The tile with the features added since the last call, as bytes; the encoder is then empty again.
    public mutating func finish() -> Data {
        if inFeature { endPoint() }
        let name = layerName.utf8.count
        let layerSize =
            1 + ProtobufWriter.varintSize(UInt64(name)) + name + features.bytes.count + keys.bytes.count
            + values.bytes.count + 1 + ProtobufWriter.varintSize(UInt64(extent)) + 2
        // The tile's one field, the layer, written straight into the output.
        output.bytes.removeAll(keepingCapacity: true)
        output.writeTag(3, .lengthDelimited)
        output.writeVarint(UInt64(layerSize))
        output.writeStringField(1, layerName)
        output.bytes.append(contentsOf: features.bytes)
        output.bytes.append(contentsOf: keys.bytes)
        output.bytes.append(contentsOf: values.bytes)
        output.writeVarintField(5, UInt64(extent))
        output.writeVarintField(15, 2)
        reset()
        return Data(output.bytes)
    }

    /// Empties the tile, keeping the buffers' memory.
    private mutating func reset() {
        features.bytes.removeAll(keepingCapacity: true)
        keys.bytes.removeAll(keepingCapacity: true)
        values.bytes.removeAll(keepingCapacity: true)
        keyCount = 0
        valueCount = 0
        featureCount = 0
        // Dictionaries grown large by one busy tile are let go rather than cleared bucket by bucket for every tile.
        if otherKeys.capacity > 256 { otherKeys = [:] } else { otherKeys.removeAll(keepingCapacity: true) }
        if otherValues.capacity > 256 { otherValues = [:] } else { otherValues.removeAll(keepingCapacity: true) }
        if tile == UInt32.max {
            for index in keyStamps.indices { keyStamps[index] = 0 }
            for index in stringStamps.indices { stringStamps[index] = 0 }
            tile = 1
        } else {
            tile += 1
        }
    }

    // MARK: Features property by property (the tileset's hot path)

    /// Starts a point feature; its properties follow, then ``endPoint()``.
    mutating func beginPoint(x: Int32, y: Int32, id: UInt64?) {
        if inFeature { endPoint() }
        featureX = x
        featureY = y
        featureId = id
        tags.removeAll(keepingCapacity: true)
        inFeature = true
    }

    /// Writes the feature started by ``beginPoint(x:y:id:)``.
    mutating func endPoint() {
        guard inFeature else { return }
        inFeature = false
        featureCount += 1
        let x = ProtobufWriter.zigzag(Int64(featureX)), y = ProtobufWriter.zigzag(Int64(featureY))
        // MoveTo (command 1) with a count of 1: (1 << 3) | 1.
        let moveTo: UInt64 = 9
        let tagBytes = tags.reduce(0) { $0 + ProtobufWriter.varintSize($1) }
        let geometryBytes = 1 + ProtobufWriter.varintSize(x) + ProtobufWriter.varintSize(y)
        var size = 2 + 1 + ProtobufWriter.varintSize(UInt64(geometryBytes)) + geometryBytes
        if let featureId { size += 1 + ProtobufWriter.varintSize(featureId) }
        if !tags.isEmpty { size += 1 + ProtobufWriter.varintSize(UInt64(tagBytes)) + tagBytes }
        features.writeTag(2, .lengthDelimited)
        features.writeVarint(UInt64(size))
        if let featureId { features.writeVarintField(1, featureId) }
        features.writePackedVarints(2, tags)
        // type: POINT (1).
        features.writeVarintField(3, 1)
        features.writeTag(4, .lengthDelimited)
        features.writeVarint(UInt64(geometryBytes))
        features.writeVarint(moveTo)
        features.writeVarint(x)
        features.writeVarint(y)
    }

    /// Adds a property of the current feature.
    mutating func add(_ key: String, _ value: VectorTileValue) {
        tags.append(UInt64(number(ofKey: key)))
        tags.append(UInt64(number(of: value)))
    }

    /// Adds a property whose key is vocabulary key `key`.
    @inline(__always)
    mutating func add(key: Int32, _ value: VectorTileValue) {
        tags.append(UInt64(number(ofKey: key)))
        tags.append(UInt64(number(of: value)))
    }

    /// Adds a property whose key is vocabulary key `key` and whose value is vocabulary string `string`.
    @inline(__always)
    mutating func add(key: Int32, string: Int32) {
        tags.append(UInt64(number(ofKey: key)))
        tags.append(UInt64(number(ofString: string)))
    }

    /// This tile's number for a vocabulary key, writing the key on first use.
    @inline(__always)
    private mutating func number(ofKey key: Int32) -> UInt32 {
        let index = Int(key)
        if keyStamps[index] == tile { return keyNumbers[index] }
        keyStamps[index] = tile
        keyNumbers[index] = keyCount
        keys.writeStringField(3, vocabulary.keys[index])
        keyCount += 1
        return keyCount - 1
    }

    /// This tile's number for a key given by name.
    private mutating func number(ofKey name: String) -> UInt32 {
        if let key = vocabulary.existingKey(name) { return number(ofKey: key) }
        if let known = otherKeys[name] { return known }
        otherKeys[name] = keyCount
        keys.writeStringField(3, name)
        keyCount += 1
        return keyCount - 1
    }

    /// This tile's number for a vocabulary string, writing the value on first use.
    @inline(__always)
    private mutating func number(ofString string: Int32) -> UInt32 {
        let index = Int(string)
        if stringStamps[index] == tile { return stringNumbers[index] }
        stringStamps[index] = tile
        stringNumbers[index] = valueCount
        let start = vocabulary.stringStarts[index], end = vocabulary.stringStarts[index + 1]
        values.writeBytesField(4, vocabulary.encodedStrings[start..<end])
        valueCount += 1
        return valueCount - 1
    }

    /// This tile's number for a value, writing it on first use.
    private mutating func number(of value: VectorTileValue) -> UInt32 {
        if case let .string(text) = value, let string = vocabulary.existingString(text) {
            return number(ofString: string)
        }
        if let known = otherValues[value] { return known }
        otherValues[value] = valueCount
        var message = ProtobufWriter(capacity: 16)
        value.write(to: &message)
        values.writeBytesField(4, message.bytes)
        valueCount += 1
        return valueCount - 1
    }
}
