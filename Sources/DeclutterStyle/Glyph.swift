import DeclutterSupport

/// What a balloon marker shows: a template image (only its alpha is used, tinted) or a short text.
public enum Glyph: Sendable, Hashable {
    /// A template PNG, with an optional double-resolution variant for scales 2 and 3.
    /// Paths are relative to the style file's folder.
    case image(path: String, path2x: String?)
    /// A short text, e.g. `"A"` or `"★"`.
    case text(String)
}

extension Glyph: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable { case image, image2x, text }

    /// Decodes `{"image": "…png", "image2x": "…png"}` or `{"text": "…"}`.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let text = try container.decodeIfPresent(String.self, forKey: .text) {
            guard !text.isEmpty, text.count <= 3 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .text, in: container,
                    debugDescription: "expected a short text of 1 to 3 characters")
            }
            self = .text(text)
        } else if let path = try container.decodeIfPresent(String.self, forKey: .image) {
            self = .image(path: path, path2x: try container.decodeIfPresent(String.self, forKey: .image2x))
        } else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "expected \"image\" (a PNG path) or \"text\""))
        }
    }

    /// Encodes the same shape it decodes.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case let .image(path, path2x):
            try container.encode(path, forKey: .image)
            try container.encodeIfPresent(path2x, forKey: .image2x)
        case let .text(text):
            try container.encode(text, forKey: .text)
        }
    }
}
