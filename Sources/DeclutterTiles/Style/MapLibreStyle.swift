import DeclutterClustering
import DeclutterGeometry
import DeclutterMapContent
import DeclutterStyle
import DeclutterSupport
import Foundation

/// A MapLibre style (style specification v8) that draws a Declutter tile set with its sprite sheet: one vector source,
/// an optional background, a symbol layer for balloon markers and one for cluster icons, each showing the icon its
/// feature's `sprite` property names.
///
/// Every URL in the style is absolute, made from ``baseURL`` and a path: MapLibre GL JS (checked with 5.3.0) refuses a
/// relative sprite URL ("Invalid sprite URL "sprite", must be absolute"), fails on relative tile templates (its
/// workers cannot parse "tiles/15/5241/12662.pbf"), resolves a relative TileJSON `url` against the page rather than
/// the style, and never resolves a TileJSON's relative `tiles` against the TileJSON's own URL.
///
/// ```swift
/// let style = try MarkerStyle.load(contentsOf: URL(fileURLWithPath: "Styles/tandm.json"))
/// let mapStyle = MapLibreStyle(markerStyle: style, tiles: .template("tiles/{z}/{x}/{y}.pbf", minimumZoom: 0,
/// maximumZoom: 16),
///                              baseURL: "https://example.com/maps/")
/// try mapStyle.jsonData().write(to: URL(fileURLWithPath: "public/maps/style.json"))
/// ```
public struct MapLibreStyle: Sendable, Hashable {
    /// Where MapLibre finds the tiles; a path is relative to ``baseURL`` unless it is a URL itself.
    public enum Tiles: Sendable, Hashable {
        /// A tile URL template such as `tiles/{z}/{x}/{y}.pbf` (a folder tile set, or a server's tiles), written into
        /// the style with the zooms the set holds and, when known, its bounds, so that MapLibre requests no tile
        /// outside them.
        case template(String, minimumZoom: Int, maximumZoom: Int, bounds: TileBounds? = nil)
        /// A TileJSON document, for a tile server that publishes one (an MBTiles file needs a server); the `tiles`
        /// inside it must be absolute, as MapLibre does not resolve them against the document's URL.
        case tileJSON(String)
        /// A PMTiles archive: the source URL is `pmtiles://` and the archive's absolute URL, which MapLibre reads only
        /// with the pmtiles protocol added to the page (`maplibregl.addProtocol("pmtiles", new
        /// pmtiles.Protocol().tile)`).
        case pmtiles(String)
    }

    /// What `python3 -m http.server` serves a folder at by default, so that a tile set written with the default base
    /// URL works when its folder is served as it is: `cd OUT && python3 -m http.server`.
    public static let defaultBaseURL = "http://localhost:8000/"

    /// The id of the one vector source in `sources`.
    public static let sourceID = "declutter"

    /// The style's `name`.
    public var name: String
    /// Where the tiles are.
    public var tiles: Tiles
    /// The public URL of the folder the style, the sprite sheet and the tiles are served from: an absolute `http`,
    /// `https` or `file` URL (a missing final `/` is added). Default ``defaultBaseURL``.
    public var baseURL: String
    /// The sprite sheet's path without extension, relative to ``baseURL``: MapLibre adds `.json`, `.png` and `@2x`.
    /// Default `sprite`, what `declutter sprites` writes.
    public var sprite: String
    /// The tile set's layer holding the markers and clusters. Default `points`.
    public var sourceLayer: String
    /// The background layer's colour; nil leaves the map transparent, for a style laid over a basemap. Default a pale
    /// land colour, `#F2EFE9`, so that the style is a map on its own.
    public var backgroundColor: RGBAColor?
    /// Where a cluster icon sits from its point, in points, x right and y down: the marker style's
    /// `cluster.centerOffset` (TANDm's `(0, −10)`), as `icon-offset`. Default `(0, 0)`.
    public var clusterOffset: (x: Double, y: Double)
    /// Whether MapLibre shows every icon the tiles hold, overlapping or not (`icon-allow-overlap` and
    /// `icon-ignore-placement`): the tiles were decluttered when they were written, and MapLibre hiding more would
    /// drop clusters that count points no other icon shows. Default true.
    public var showsEveryIcon: Bool
    /// How clusters' counts are drawn as text over their rings (placed tiles, whose sprite sheet holds rings without
    /// counts); nil when the icons carry their counts.
    public var countText: CountText?
    /// The camera the map opens at when the page gives none, or nil.
    public var center: Coordinate?
    /// The zoom the map opens at when the page gives none, or nil.
    public var zoom: Double?
    /// The basemap drawn under the markers, or nil for none (the background colour alone).
    public var basemap: Basemap?
    /// What the markers' colours mean, for a page to show beside the map: written under the style's `metadata` as
    /// `declutter:legend` (`title`, and `rows` of `name`, `color`, `count` and, for a row standing for many values,
    /// `values`); MapLibre draws no legend itself. Nil writes none.
    public var legend: MapLegend?

    /// Creates a style; every default is the one its property documents.
    public init(
        name: String = "Declutter", tiles: Tiles, baseURL: String = MapLibreStyle.defaultBaseURL,
        sprite: String = "sprite",
        sourceLayer: String = "points",
        backgroundColor: RGBAColor? = RGBAColor(red: 242 / 255, green: 239 / 255, blue: 233 / 255),
        clusterOffset: (x: Double, y: Double) = (0, 0), showsEveryIcon: Bool = true, center: Coordinate? = nil,
        zoom: Double? = nil
    ) {
        self.name = name
        self.tiles = tiles
        self.baseURL = baseURL
        self.sprite = sprite
        self.sourceLayer = sourceLayer
        self.backgroundColor = backgroundColor
        self.clusterOffset = clusterOffset
        self.showsEveryIcon = showsEveryIcon
        self.center = center
        self.zoom = zoom
    }

    /// Clusters' counts as text: the feature's `point_count_abbreviated` at its `label_size`, in a font whose glyphs
    /// the tileset carries, centred on the ring as a static icon centres its count.
    public struct CountText: Sendable, Hashable {
        /// The glyph ranges' URL template relative to the base URL, with MapLibre's `{fontstack}` and `{range}`.
        public var glyphs: String
        /// The font stack, as the glyph ranges name it.
        public var font: String
        /// The text's colour.
        public var color: RGBAColor
        /// How far the count's ink centre lies below the line's middle, in ems: the `text-offset` that moves it up
        /// onto the ring's centre (MapLibre centres the line, a static icon the ink).
        public var inkDrop: Double

        /// Creates text settings from their parts.
        public init(glyphs: String, font: String, color: RGBAColor, inkDrop: Double) {
            self.glyphs = glyphs
            self.font = font
            self.color = color
            self.inkDrop = inkDrop
        }
    }

    /// The zoom at which `bounds` fills a 1024×768 map (world 256 px across at zoom 0), within `zooms`: where the
    /// style opens when the page gives no camera.
    public static func fittingZoom(_ bounds: TileBounds, within zooms: ClosedRange<Int>) -> Double {
        let width = WebMercator.x(longitude: bounds.east) - WebMercator.x(longitude: bounds.west)
        let height = WebMercator.y(latitude: bounds.south) - WebMercator.y(latitude: bounds.north)
        let fit = min(log2(1024 / 256 / max(width, 1e-12)), log2(768 / 256 / max(height, 1e-12)))
        return min(max(fit.rounded(.down), Double(zooms.lowerBound)), Double(zooms.upperBound))
    }

    /// A style for the icons a marker style draws: its name, and its cluster icons' offset from their points.
    public init(markerStyle: MarkerStyle, tiles: Tiles, baseURL: String = MapLibreStyle.defaultBaseURL) {
        let offset = markerStyle.cluster.centerOffset.count == 2 ? markerStyle.cluster.centerOffset : [0, 0]
        self.init(name: markerStyle.name, tiles: tiles, baseURL: baseURL, clusterOffset: (offset[0], offset[1]))
    }

    /// Two styles are equal when every property is (the offset by its two numbers).
    public static func == (lhs: MapLibreStyle, rhs: MapLibreStyle) -> Bool {
        lhs.name == rhs.name && lhs.tiles == rhs.tiles && lhs.baseURL == rhs.baseURL && lhs.sprite == rhs.sprite
            && lhs.sourceLayer == rhs.sourceLayer && lhs.backgroundColor == rhs.backgroundColor
            && lhs.clusterOffset == rhs.clusterOffset && lhs.showsEveryIcon == rhs.showsEveryIcon
            && lhs.countText == rhs.countText && lhs.center == rhs.center && lhs.zoom == rhs.zoom
            && lhs.basemap == rhs.basemap && lhs.legend == rhs.legend
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(tiles)
        hasher.combine(baseURL)
        hasher.combine(sprite)
        hasher.combine(sourceLayer)
        hasher.combine(backgroundColor)
        hasher.combine(clusterOffset.x)
        hasher.combine(clusterOffset.y)
        hasher.combine(showsEveryIcon)
        hasher.combine(countText)
        hasher.combine(legend)
        hasher.combine(center)
        hasher.combine(zoom)
        hasher.combine(basemap)
    }

    /// The style document: `version`, `name`, the camera if set, the legend's `metadata` if set, `sprite`,
    /// `sources` and `layers`, in that order.
    public func jsonValue() throws -> JSONValue {
        let base = try Self.normalizedBaseURL(baseURL)
        var root = JSONObject([("version", .number(8)), ("name", .string(name))])
        if let center { root["center"] = .array([.number(center.longitude), .number(center.latitude)]) }
        if let zoom { root["zoom"] = .number(zoom) }
        if let legend { root["metadata"] = .object(JSONObject([(Self.legendKey, Self.legendJSON(legend))])) }
        root["sprite"] = .string(try Self.absolute(sprite, base: base, what: "sprite"))
        if let glyphs = countText?.glyphs ?? basemap?.glyphs {
            root["glyphs"] = .string(try Self.absolute(glyphs, base: base, what: "glyphs"))
        }
        var sources = JSONObject([(Self.sourceID, .object(try source(tiles, base: base)))])
        if let basemap { sources[Self.basemapSourceID] = .object(try source(basemap.tiles, base: base)) }
        root["sources"] = .object(sources)
        var layers: [JSONValue] = []
        // Under a basemap the background is its sea.
        if let backgroundColor = backgroundColor.map({ basemap?.colors.sea ?? $0 }) {
            layers.append(
                .object(
                    JSONObject([
                        ("id", .string("background")), ("type", .string("background")),
                        ("paint", .object(JSONObject([("background-color", .string(Self.cssColor(backgroundColor)))]))),
                    ])))
        }
        if let basemap { layers += basemap.layers() }
        // Markers first, so that a cluster icon draws over a balloon's head where the two touch.
        layers.append(
            symbolLayer(id: "markers", filter: Self.clusterTest("!="), extra: [("icon-anchor", .string("bottom"))]))
        let offset: [(String, JSONValue)] =
            clusterOffset == (0, 0)
            ? [] : [("icon-offset", .array([.number(clusterOffset.x), .number(clusterOffset.y)]))]
        var clusters = symbolLayer(id: "clusters", filter: Self.clusterTest("=="), extra: offset)
        if let countText {
            clusters = Self.addingCount(countText, to: clusters, offset: clusterOffset, overlapping: showsEveryIcon)
        }
        layers.append(clusters)
        root["layers"] = .array(layers)
        return .object(root)
    }

    /// The key of ``legend`` in the style's `metadata`.
    public static let legendKey = "declutter:legend"

    /// `legend` as the style's metadata carries it.
    static func legendJSON(_ legend: MapLegend) -> JSONValue {
        let rows = legend.rows.map { row in
            var fields: [(String, JSONValue)] = [
                ("name", .string(row.name)), ("color", .string(cssColor(row.color))),
                ("count", .number(Double(row.count))),
            ]
            if let values = row.values { fields.append(("values", .number(Double(values)))) }
            return JSONValue.object(JSONObject(fields))
        }
        return .object(JSONObject([("title", legend.title.map { .string($0) } ?? .null), ("rows", .array(rows))]))
    }

    /// The style as compact JSON text and a final newline.
    public func jsonData() throws -> Data {
        Data((try jsonValue().jsonText + "\n").utf8)
    }

    /// A vector source: a template with zooms and bounds, or a TileJSON or PMTiles URL.
    private func source(_ tiles: Tiles, base: String) throws -> JSONObject {
        var source = JSONObject([("type", .string("vector"))])
        switch tiles {
        case let .template(template, minimumZoom, maximumZoom, bounds):
            guard (0...30).contains(minimumZoom), (minimumZoom...30).contains(maximumZoom) else {
                throw MapLibreStyleError.zooms(minimum: minimumZoom, maximum: maximumZoom)
            }
            source["tiles"] = .array([.string(try Self.absolute(template, base: base, what: "tiles"))])
            source["minzoom"] = .number(Double(minimumZoom))
            source["maxzoom"] = .number(Double(maximumZoom))
            if let bounds {
                // An empty WorldBounds converts to infinities, which JSON cannot hold; a box upside down hides every
                // tile.
                guard [bounds.west, bounds.south, bounds.east, bounds.north].allSatisfy(\.isFinite),
                    bounds.west <= bounds.east,
                    bounds.south <= bounds.north
                else { throw MapLibreStyleError.bounds(bounds) }
                source["bounds"] = .array([bounds.west, bounds.south, bounds.east, bounds.north].map(JSONValue.number))
            }
        case let .tileJSON(path):
            source["url"] = .string(try Self.absolute(path, base: base, what: "tileJSON"))
        case let .pmtiles(path):
            source["url"] = .string("pmtiles://" + (try Self.absolute(path, base: base, what: "pmtiles")))
        }
        return source
    }

    /// A symbol layer of the one source showing each feature's `sprite` icon.
    private func symbolLayer(id: String, filter: JSONValue, extra: [(String, JSONValue)]) -> JSONValue {
        var layout = JSONObject([("icon-image", .array([.string("get"), .string("sprite")]))])
        for (key, value) in extra { layout[key] = value }
        if showsEveryIcon {
            layout["icon-allow-overlap"] = .bool(true)
            // Over a basemap the icons keep their place from its names, which MapLibre places after them (it places
            // the top layers first), so that a name is left out where it would cross an icon, as on a static map.
            layout["icon-ignore-placement"] = .bool(basemap == nil)
            // Drawn in order of their counts, so that where icons overlap the larger count is on top: the order
            // MapLibre chose alone (lower on screen on top) let a cluster of 6 cover one of 14.
            layout["symbol-sort-key"] = .array([
                .string("coalesce"), .array([.string("get"), .string("point_count")]), .number(1),
            ])
        }
        return .object(
            JSONObject([
                ("id", .string(id)), ("type", .string("symbol")), ("source", .string(Self.sourceID)),
                ("source-layer", .string(sourceLayer)), ("filter", filter), ("layout", .object(layout)),
            ]))
    }

    /// The clusters' layer with their counts drawn over the icons: the text at the icon's offset (`text-translate`, in
    /// pixels as `icon-offset` is), moved up by the ink's drop.
    private static func addingCount(
        _ text: CountText, to layer: JSONValue, offset: (x: Double, y: Double), overlapping: Bool
    ) -> JSONValue {
        guard case var .object(object) = layer, case var .object(layout)? = object["layout"] else { return layer }
        layout["text-field"] = .array([.string("get"), .string("point_count_abbreviated")])
        layout["text-font"] = .array([.string(text.font)])
        layout["text-size"] = .array([.string("get"), .string("label_size")])
        layout["text-offset"] = .array([.number(0), .number(-text.inkDrop)])
        if overlapping {
            layout["text-allow-overlap"] = .bool(true)
            layout["text-ignore-placement"] = .bool(true)
        }
        object["layout"] = .object(layout)
        var paint = JSONObject([("text-color", .string(cssColor(text.color)))])
        if offset != (0, 0) { paint["text-translate"] = .array([.number(offset.x), .number(offset.y)]) }
        object["paint"] = .object(paint)
        return .object(object)
    }

    /// `[op, ["get", "cluster"], true]`: a feature without `cluster` is a marker, as `null != true`.
    private static func clusterTest(_ operation: String) -> JSONValue {
        .array([.string(operation), .array([.string("get"), .string("cluster")]), .bool(true)])
    }

    /// The base URL with a final `/`, or an error when it is not an absolute http, https or file URL.
    static func normalizedBaseURL(_ text: String) throws -> String {
        guard let scheme = Self.scheme(of: text), ["http", "https", "file"].contains(scheme.lowercased()),
            text.count > scheme.count + 3
        else {
            throw MapLibreStyleError.baseURL(text)
        }
        return text.hasSuffix("/") ? text : text + "/"
    }

    /// A path joined to the base URL, or the path itself when it is a URL already. Joined as text, not with `URL`,
    /// so that a template's `{z}` braces stay as they are.
    static func absolute(_ path: String, base: String, what: String) throws -> String {
        if scheme(of: path) != nil { return path }
        guard !path.isEmpty, !path.hasPrefix("/") else { throw MapLibreStyleError.path(path, field: what) }
        return base + path
    }

    /// The scheme of `scheme://…`, or nil.
    private static func scheme(of text: String) -> String? {
        guard let range = text.range(of: "://") else { return nil }
        let scheme = text[..<range.lowerBound]
        guard let first = scheme.first, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return String(scheme)
    }

    /// `#RRGGBB` when opaque, else `rgba(r, g, b, a)`, which every MapLibre version reads.
    public static func cssColor(_ color: RGBAColor) -> String {
        guard color.alpha < 1 else { return color.hexString }
        let channels = [color.red, color.green, color.blue].map { String(Int((min(max($0, 0), 1) * 255).rounded())) }
        return "rgba(\(channels.joined(separator: ", ")), \(JSONValue.format(min(max(color.alpha, 0), 1))))"
    }
}
