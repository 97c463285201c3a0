import DeclutterStyle
import DeclutterSupport
import DeclutterTiles
import Foundation

/// A tileset archive served by `declutter serve --tileset NAME=FILE`: its tiles as `/tiles/NAME/{z}/{x}/{y}.mvt`, its
/// TileJSON, the file itself by byte range, and the files `declutter tiles` wrote beside it (`NAME-style.json`,
/// `NAME-sprite…`, `NAME-glyphs/`), read once at start, with the style's URLs pointed at the server (its basemap
/// source at the server's own `/basemap/…`, the same tiles as `NAME-basemap.pmtiles`).
public struct ServedTileset: Sendable {
    /// The name in URLs: 1…64 ASCII letters, digits, `-` and `_`.
    public let name: String
    /// The archive.
    public let archive: TilesetArchive
    /// The style written beside the archive, as written; nil when there is none (an archive of another tool's).
    let style: Data?
    /// The sprite sheets beside it by the name the server gives them: `sprite.json`, `sprite.png`, `sprite@2x.json`,
    /// `sprite@2x.png`.
    let sprites: [String: Data]
    /// The glyph ranges beside it by `FONTSTACK/START-END.pbf`.
    let glyphs: [String: Data]

    /// Whether a style was written beside the archive (else a plain one is served).
    public var hasStyle: Bool { style != nil }

    /// The most bytes of companion files read at start: the sheets and glyph ranges of `declutter tiles` take a few
    /// MB; more is not what it writes.
    static let companionLimit = 64 << 20

    /// Opens the archive at `path` and reads the companion files beside it.
    ///
    /// - Throws: ``ServerError`` for a bad name, ``TilesetArchiveError`` for a file that is not a tileset archive of
    ///   vector tiles or companions past ``companionLimit``.
    public static func open(name: String, path: String) throws -> ServedTileset {
        try Dataset.checkName(name, kind: "tileset")
        let archive = try TilesetArchive(path: path)
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent(), prefix = url.deletingPathExtension().lastPathComponent + "-"
        var total = 0
        func read(_ file: URL) throws -> Data? {
            guard FileSystem.item(atPath: file.path) == .file,
                let data = FileManager.default.contents(atPath: file.path)
            else { return nil }
            total += data.count
            guard total <= companionLimit else {
                throw TilesetArchiveError(
                    "\(path): the files beside it (\(prefix)…) pass \(companionLimit >> 20) MB; expected what declutter tiles writes"
                )
            }
            return data
        }
        var sprites: [String: Data] = [:]
        for file in ["sprite.json", "sprite.png", "sprite@2x.json", "sprite@2x.png"] {
            sprites[file] = try read(folder.appendingPathComponent(prefix + file))
        }
        var glyphs: [String: Data] = [:]
        let glyphFolder = folder.appendingPathComponent(prefix + "glyphs")
        for stack in (try? FileManager.default.contentsOfDirectory(atPath: glyphFolder.path)) ?? [] {
            let stackFolder = glyphFolder.appendingPathComponent(stack)
            for file in (try? FileManager.default.contentsOfDirectory(atPath: stackFolder.path)) ?? []
            where file.hasSuffix(".pbf") {
                glyphs[stack + "/" + file] = try read(stackFolder.appendingPathComponent(file))
            }
        }
        return ServedTileset(
            name: name, archive: archive, style: try read(folder.appendingPathComponent(prefix + "style.json")),
            sprites: sprites, glyphs: glyphs)
    }

    /// The path the archive file is served at, under the server's base URL: `tilesets/NAME.pmtiles`.
    public var filePath: String { "tilesets/\(name).\(archive.format.rawValue)" }

    /// The style for a page at `baseURL`: the one written beside the archive, its tile source, sprite and glyphs
    /// pointed at the server's routes; without one, a plain style drawing every vector layer (fills, lines, circles).
    ///
    /// - Throws: ``TilesetArchiveError`` when the style beside the archive is not a JSON object.
    func styleJSON(baseURL: String) throws -> Data {
        let source: [String: Any] = [
            "type": "vector", "tiles": [baseURL + "tiles/\(name)/{z}/{x}/{y}.mvt"],
            "minzoom": archive.zooms.lowerBound, "maxzoom": archive.zooms.upperBound,
            "bounds": [archive.bounds.west, archive.bounds.south, archive.bounds.east, archive.bounds.north],
            "attribution": archive.attribution ?? "",
        ]
        var style: [String: Any]
        if let written = self.style {
            guard let object = try? JSONSerialization.jsonObject(with: written) as? [String: Any] else {
                throw TilesetArchiveError("\(archive.path): the style.json beside it is not a JSON object")
            }
            style = object
            var sources = style["sources"] as? [String: Any] ?? [:]
            sources[MapLibreStyle.sourceID] = source
            // The basemap written beside the archive is the one the server serves itself, byte for byte.
            if sources[MapLibreStyle.basemapSourceID] != nil {
                sources[MapLibreStyle.basemapSourceID] = Self.basemapSource(baseURL: baseURL)
            }
            style["sources"] = sources
            Self.addingBasemap(to: &style, baseURL: baseURL)
            if sprites["sprite.json"] != nil { style["sprite"] = baseURL + "tilesets/\(name)/sprite" }
            if !glyphs.isEmpty { style["glyphs"] = baseURL + "tilesets/\(name)/glyphs/{fontstack}/{range}.pbf" }
        } else {
            style = [
                "version": 8, "name": archive.name ?? name, "sources": [MapLibreStyle.sourceID: source],
                "layers": Self.plainLayers(vectorLayers: archive.vectorLayers),
            ]
            Self.addingBasemap(to: &style, baseURL: baseURL)
        }
        // The written style's own view is the data's; another tool's archive opens at the centre it states.
        if style["center"] == nil {
            style["center"] = [archive.center.longitude, archive.center.latitude]
            style["zoom"] = archive.center.zoom
        }
        return try JSONSerialization.data(withJSONObject: style, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    /// Draws a style without a basemap (a tile set written with `--no-basemap`, another tool's archive) over the one
    /// the server serves: its source, and its land, lakes, rivers and borders just above the background, whose colour
    /// becomes the sea's, in the default style's colours. Place names are left out: the style's glyphs, if any, are its
    /// counts', not the basemap's font. A style with a basemap of its own is left as it is.
    static func addingBasemap(to style: inout [String: Any], baseURL: String) {
        var sources = style["sources"] as? [String: Any] ?? [:]
        guard sources[MapLibreStyle.basemapSourceID] == nil,
            var layers = style["layers"] as? [[String: Any]],
            !layers.contains(where: { ($0["id"] as? String)?.hasPrefix("basemap-") == true })
        else { return }
        let colors = MapStyle()
        // Only the layers are read: the source is the server's, below.
        let basemap = MapLibreStyle.Basemap(
            tiles: .template("basemap/{z}/{x}/{y}.mvt", minimumZoom: 0, maximumZoom: BasemapTileset.maximumZoom),
            colors: colors, glyphs: "")
        let added = basemap.layersWithoutNames().compactMap { layer in
            (try? JSONSerialization.jsonObject(with: Data(layer.jsonText.utf8))) as? [String: Any]
        }
        sources[MapLibreStyle.basemapSourceID] = basemapSource(baseURL: baseURL)
        style["sources"] = sources
        var at = 0
        if let first = layers.first, first["type"] as? String == "background" {
            layers[0]["paint"] = ["background-color": MapLibreStyle.cssColor(colors.sea)]
            at = 1
        }
        layers.insert(contentsOf: added, at: at)
        style["layers"] = layers
    }

    /// The server's own basemap (`/basemap/…`) as a style's vector source.
    static func basemapSource(baseURL: String) -> [String: Any] {
        [
            "type": "vector", "tiles": [baseURL + "basemap/{z}/{x}/{y}.mvt"], "minzoom": 0,
            "maxzoom": BasemapTileset.maximumZoom,
        ]
    }

    /// A background, then a fill, a line and a circle layer for each vector layer the metadata names, each in a
    /// colour of its own: enough to see what an archive holds.
    static func plainLayers(vectorLayers: Data?) -> [[String: Any]] {
        let ids =
            ((vectorLayers.flatMap { try? JSONSerialization.jsonObject(with: $0) } as? [[String: Any]]) ?? [])
            .compactMap { $0["id"] as? String }
        let colours = ["#1F77B4", "#D62728", "#2CA02C", "#9467BD", "#FF7F0E", "#17BECF", "#8C564B", "#E377C2"]
        var layers: [[String: Any]] = [
            ["id": "background", "type": "background", "paint": ["background-color": "#F2EFE9"]]
        ]
        for (index, id) in ids.enumerated() {
            let colour = colours[index % colours.count]
            let common: [String: Any] = ["source": MapLibreStyle.sourceID, "source-layer": id]
            layers.append(
                common.merging(
                    [
                        "id": "\(id)-fill", "type": "fill", "filter": ["==", ["geometry-type"], "Polygon"],
                        "paint": ["fill-color": colour, "fill-opacity": 0.3],
                    ], uniquingKeysWith: { $1 }))
            layers.append(
                common.merging(
                    [
                        "id": "\(id)-line", "type": "line", "filter": ["==", ["geometry-type"], "LineString"],
                        "paint": ["line-color": colour, "line-width": 1.5],
                    ], uniquingKeysWith: { $1 }))
            layers.append(
                common.merging(
                    [
                        "id": "\(id)-circle", "type": "circle", "filter": ["==", ["geometry-type"], "Point"],
                        "paint": [
                            "circle-color": colour, "circle-radius": 4, "circle-stroke-color": "#FFFFFF",
                            "circle-stroke-width": 1,
                        ],
                    ], uniquingKeysWith: { $1 }))
        }
        return layers
    }
}
