/// A coding key for any string, used to see every key an object holds.
package struct AnyCodingKey: CodingKey {
    package var stringValue: String
    package var intValue: Int?
    package init(stringValue: String) { self.stringValue = stringValue }
    package init(intValue: Int) {
        self.stringValue = "\(intValue)"
        self.intValue = intValue
    }
}

extension Decoder {
    /// Throws when the object holds a key outside `Keys`, so a misspelt field is reported instead of ignored.
    package func rejectUnknownKeys<Keys: CodingKey & CaseIterable>(_ keys: Keys.Type) throws {
        let container = try self.container(keyedBy: AnyCodingKey.self)
        let known = Set(Keys.allCases.map(\.stringValue))
        if let unknown = container.allKeys.first(where: { !known.contains($0.stringValue) }) {
            let fields = Keys.allCases.map(\.stringValue).joined(separator: ", ")
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: codingPath + [unknown],
                    debugDescription: "unknown field; expected one of: \(fields)"))
        }
    }
}

extension KeyedDecodingContainer {
    /// Decodes an optional value and checks it against a condition, naming the field and the expectation on failure.
    package func decode<T: Decodable>(
        _ type: T.Type, forKey key: Key, default value: T,
        where isValid: (T) -> Bool = { _ in true }, expected: String
    ) throws -> T {
        guard let decoded = try decodeIfPresent(type, forKey: key) else { return value }
        guard isValid(decoded) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "expected \(expected)")
        }
        return decoded
    }

    /// Decodes a required value and checks it against a condition, naming the field and the expectation on failure.
    package func decode<T: Decodable>(
        _ type: T.Type, forKey key: Key,
        where isValid: (T) -> Bool, expected: String
    ) throws -> T {
        let decoded = try decode(type, forKey: key)
        guard isValid(decoded) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "expected \(expected)")
        }
        return decoded
    }
}
