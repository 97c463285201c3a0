import DeclutterPNG
import DeclutterSupport
import Foundation

/// A marker style: the categories with their colours and glyphs, the cluster icon and balloon geometry, the font.
///
/// Styles are JSON files (`Styles/*.json`); ``load(contentsOf:)`` validates one and reports
/// the first problem with the file, the field path and what was expected.
public struct MarkerStyle: Sendable, Hashable {
    /// A human-readable name.
    public var name: String
    /// A Pango font description without size, naming a concrete family so output is stable, e.g. `"DejaVu Sans Bold"`.
    public var font: String
    /// The categories in slice order: cluster slices run clockwise from 3 o'clock in this order.
    public var categories: [MarkerCategory]
    /// Cluster icon geometry and colours.
    public var cluster: ClusterIconStyle
    /// Balloon marker geometry.
    public var balloon: BalloonStyle
    /// Which icons the style's sprite sheet holds.
    public var sprites: SpriteSettings
    /// How static maps look around the markers.
    public var map: MapStyle
    /// The folder that relative glyph paths are resolved against; nil means the current directory.
    public var directory: URL?
    /// The file the style was read from as errors name it (a bundled style's name), or nil for a style made in code.
    public var file: String?
    /// The bytes of each glyph image, keyed by the path as the style gives it; read when the style is loaded,
    /// so that drawing reads no files and a style compiled into the binary needs none.
    public var glyphImages: [String: Data] = [:]

    /// Creates a style; `balloon`, `sprites` and `map` default to their types' defaults.
    public init(
        name: String, font: String, categories: [MarkerCategory], cluster: ClusterIconStyle,
        balloon: BalloonStyle = BalloonStyle(), sprites: SpriteSettings = SpriteSettings(), map: MapStyle = MapStyle(),
        directory: URL? = nil
    ) {
        self.name = name
        self.font = font
        self.categories = categories
        self.cluster = cluster
        self.balloon = balloon
        self.sprites = sprites
        self.map = map
        self.directory = directory
    }

    /// The category with this name, if the style has one.
    public func category(named name: String) -> MarkerCategory? {
        categories.first { $0.name == name }
    }

    /// The files the glyph images were read from, as absolute paths, in the style's order: inputs that a command
    /// writing files must not replace. None for a style compiled into the binary, which has no folder.
    public var glyphImageFiles: [String] {
        guard directory != nil else { return [] }
        var seen = Set<String>()
        return categories.flatMap { category -> [String] in
            guard case let .image(path, path2x) = category.glyph else { return [] }
            return [path, path2x].compactMap { $0 }
        }.filter { seen.insert($0).inserted }.map { resolve($0).path }
    }

    /// The absolute location of a glyph path given in the style.
    public func resolve(_ path: String) -> URL {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: path, relativeTo: directory).standardizedFileURL
    }
}

extension MarkerStyle: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable { case name, font, categories, cluster, balloon, sprites, map }

    /// Decodes and validates the style's fields; glyph files are checked by ``load(contentsOf:)``.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let categories = try container.decode(
            [MarkerCategory].self, forKey: .categories, where: { !$0.isEmpty },
            expected: "a non-empty list of categories")
        var seen: [String: Int] = [:]
        for (index, category) in categories.enumerated() {
            if let first = seen.updateValue(index, forKey: category.name) {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: decoder.codingPath + [
                            CodingKeys.categories, AnyCodingKey(intValue: index), AnyCodingKey(stringValue: "name"),
                        ],
                        debugDescription:
                            "expected a name no other category has; categories[\(first)] is named \"\(category.name)\" too"
                    ))
            }
        }
        self.init(
            name: try container.decodeIfPresent(String.self, forKey: .name) ?? "",
            font: try container.decode(
                String.self, forKey: .font, where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty },
                expected: "a font description such as \"DejaVu Sans Bold\""),
            categories: categories,
            cluster: try container.decode(ClusterIconStyle.self, forKey: .cluster),
            balloon: try container.decodeIfPresent(BalloonStyle.self, forKey: .balloon) ?? BalloonStyle(),
            sprites: try container.decodeIfPresent(SpriteSettings.self, forKey: .sprites) ?? SpriteSettings(),
            map: try container.decodeIfPresent(MapStyle.self, forKey: .map) ?? MapStyle())
    }

    /// Encodes the style's fields (not its folder).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(font, forKey: .font)
        try container.encode(categories, forKey: .categories)
        try container.encode(cluster, forKey: .cluster)
        try container.encode(balloon, forKey: .balloon)
        try container.encode(sprites, forKey: .sprites)
        try container.encode(map, forKey: .map)
    }
}

extension MarkerStyle {
    /// Reads, decodes and validates a style file; glyph paths resolve against the file's folder.
    ///
    /// - Throws: ``StyleError`` naming the file, the field path (e.g. `categories[1].color`) and what was expected.
    public static func load(contentsOf url: URL) throws -> MarkerStyle {
        let file = url.relativePath
        if FileSystem.item(atPath: url.path) == .folder {
            throw StyleError(file: file, path: "", message: "is a folder, not a style file")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw StyleError(file: file, path: "", message: "cannot read the style file (\(FileSystem.reason(error)))")
        }
        return try decode(data, file: file, directory: url.deletingLastPathComponent())
    }

    /// Decodes and validates style JSON; `file` names the source in errors and glyph paths resolve against `directory`.
    public static func decode(_ data: Data, file: String, directory: URL?) throws -> MarkerStyle {
        var style = try decodeFields(data, file: file)
        style.directory = directory
        style.file = file
        let resolve = style.resolve
        try style.readGlyphImages(file: file) { path in
            let location = resolve(path)
            return (try? Data(contentsOf: location), location.path)
        }
        return style
    }

    /// Decodes and validates style JSON whose glyph images come from `glyphFile` (path as the style gives it →
    /// bytes, or nil when there is none), such as a style compiled into the binary.
    public static func decode(_ data: Data, file: String, glyphFile: (String) -> Data?) throws -> MarkerStyle {
        var style = try decodeFields(data, file: file)
        style.file = file
        try style.readGlyphImages(file: file) { path in (glyphFile(path), path) }
        return style
    }

    private static func decodeFields(_ data: Data, file: String) throws -> MarkerStyle {
        do {
            return try JSONValueDecoder.decode(MarkerStyle.self, from: data)
        } catch let syntax as JSONSyntaxError {
            throw StyleError(file: file, path: "", message: "not valid JSON: \(syntax)")
        } catch let error as DecodingError {
            throw StyleError(file: file, decodingError: error)
        }
    }

    /// The largest glyph image side in pixels: a glyph is drawn at most 512 points wide (the widest balloon), and
    /// 2048 px leaves room for padding around the ink at three pixels a point.
    public static let maximumGlyphImageSide = 2048

    /// Reads every glyph image through `read` (path → bytes or nil, and the name to report) and checks it is a PNG.
    private mutating func readGlyphImages(file: String, read: (String) -> (Data?, String)) throws {
        for (index, category) in categories.enumerated() {
            guard case let .image(path, path2x) = category.glyph else { continue }
            for (key, candidate) in [("image", path), ("image2x", path2x)] {
                guard let candidate, glyphImages[candidate] == nil else { continue }
                let (bytes, location) = read(candidate)
                let fieldPath = "categories[\(index)].glyph.\(key)"
                guard let bytes else {
                    throw StyleError(
                        file: file, path: fieldPath,
                        message: "expected a readable PNG file, but \(location) cannot be read")
                }
                guard let size = PNGImageSize(of: bytes) else {
                    throw StyleError(
                        file: file, path: fieldPath, message: "expected a PNG file, but \(location) is not one")
                }
                // Decoding is what costs: a 16384² image is 1 GB of pixels for a glyph drawn at most 512 points wide.
                guard size.width <= Self.maximumGlyphImageSide, size.height <= Self.maximumGlyphImageSide else {
                    throw StyleError(
                        file: file, path: fieldPath,
                        message: "expected a glyph image of at most \(Self.maximumGlyphImageSide)×"
                            + "\(Self.maximumGlyphImageSide) px, but \(location) is \(size.text) px")
                }
                glyphImages[candidate] = bytes
            }
        }
    }
}
