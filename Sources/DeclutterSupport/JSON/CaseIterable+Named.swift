extension CaseIterable where Self: RawRepresentable, RawValue == String {
    /// Decodes one of the cases by its name; another name is refused with every choice listed (the standard
    /// library's default says "Cannot initialize … from invalid String value").
    package static func named(in decoder: any Decoder) throws -> Self {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let value = Self(rawValue: name) else {
            let choices = allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected one of \(choices), got \"\(name.escapedForTerminal)\"")
        }
        return value
    }
}
