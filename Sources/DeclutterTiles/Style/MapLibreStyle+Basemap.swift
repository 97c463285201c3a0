import DeclutterStyle
import DeclutterSupport

extension MapLibreStyle {
    /// The basemap a style draws under the markers and clusters (``BasemapTileset``'s layers), in the colours a static
    /// map of the same marker style paints the embedded basemap with, so that the web map and the static one match.
    public struct Basemap: Sendable, Hashable {
        /// Where MapLibre finds the basemap's tiles.
        public var tiles: Tiles
        /// The colours and widths: the marker style's map style.
        public var colors: MapStyle
        /// The glyph ranges' URL template relative to the base URL, with MapLibre's `{fontstack}` and `{range}`: the
        /// place names' font must be among them.
        public var glyphs: String
        /// The font stack of the place names.
        public var font: String

        /// The font static maps name places in.
        public static let placeFont = "DejaVu Sans"

        /// Creates the basemap's settings; the font defaults to ``placeFont``.
        public init(tiles: Tiles, colors: MapStyle, glyphs: String, font: String = Basemap.placeFont) {
            self.tiles = tiles
            self.colors = colors
            self.glyphs = glyphs
            self.font = font
        }

        /// The land's colour as a static map shows it: its fill at its opacity over the sea, made opaque so that the
        /// land of two tiles meeting at an edge covers it once, leaving no seam.
        var landColor: RGBAColor? {
            guard let fill = colors.land.fill else { return nil }
            let alpha = min(max(fill.alpha * colors.land.opacity, 0), 1), sea = colors.sea
            return RGBAColor(
                red: fill.red * alpha + sea.red * (1 - alpha), green: fill.green * alpha + sea.green * (1 - alpha),
                blue: fill.blue * alpha + sea.blue * (1 - alpha))
        }

        /// The layers without the place names, which need the basemap's font among a style's glyphs: for a style
        /// whose glyphs are another's, such as those of a tile set written without a basemap, drawn over one.
        public func layersWithoutNames() -> [JSONValue] { layers(namingPlaces: false) }

        /// The layers, bottom first: land, lakes, rivers, state borders, country borders, place names. A tile of zoom z
        /// holds what a static map at z + 1 draws, so the widths a static map changes at zoom 4, 5 and 8 change here at
        /// 3, 4 and 7.
        func layers(namingPlaces: Bool = true) -> [JSONValue] {
            var layers: [JSONValue] = []
            let water = MapLibreStyle.cssColor(colors.water ?? colors.sea)
            if let landColor {
                layers.append(
                    Self.layer(
                        "basemap-land", type: "fill", sourceLayer: "land",
                        paint: [
                            ("fill-color", .string(MapLibreStyle.cssColor(landColor)))
                        ]))
            }
            layers.append(
                Self.layer("basemap-lakes", type: "fill", sourceLayer: "lakes", paint: [("fill-color", .string(water))])
            )
            if colors.riverWidth > 0 {
                let width = colors.riverWidth
                layers.append(
                    Self.layer(
                        "basemap-rivers", type: "line", sourceLayer: "rivers",
                        paint: [
                            ("line-color", .string(water)),
                            ("line-width", Self.step([width * 0.5, width * 0.75, width], at: [4, 7])),
                        ], layout: Self.roundLines))
            }
            let state = colors.stateBorder
            if state.width > 0 {
                // Dashes of 3w + 1 and gaps of 2w + 1 points, as static maps draw them; MapLibre counts in widths.
                layers.append(
                    Self.layer(
                        "basemap-states", type: "line", sourceLayer: "states",
                        paint: [
                            ("line-color", .string(MapLibreStyle.cssColor(Self.faded(state.stroke, state.opacity)))),
                            ("line-width", .number(state.width)),
                            (
                                "line-dasharray",
                                .array([
                                    .number((3 * state.width + 1) / state.width),
                                    .number((2 * state.width + 1) / state.width),
                                ])
                            ),
                        ]))
            }
            let country = colors.countryBorder
            if country.width > 0 {
                layers.append(
                    Self.layer(
                        "basemap-countries", type: "line", sourceLayer: "countries",
                        paint: [
                            (
                                "line-color",
                                .string(MapLibreStyle.cssColor(Self.faded(country.stroke, country.opacity)))
                            ),
                            ("line-width", Self.step([country.width * 0.7, country.width], at: [3])),
                        ], layout: Self.roundLines))
            }
            guard namingPlaces else { return layers }
            // Names in rank order (Natural Earth's min zoom, then population), 11 points from further out than static
            // zoom 4 and 10 closer, on a halo of 1.5 points, on one line.
            let size: JSONValue = .array([
                .string("case"), .array([.string("<"), .array([.string("get"), .string("min_zoom")]), .number(4)]),
                .number(11), .number(10),
            ])
            layers.append(
                Self.layer(
                    "basemap-places", type: "symbol", sourceLayer: "places",
                    paint: [
                        ("text-color", .string(MapLibreStyle.cssColor(colors.placeLabel))),
                        ("text-halo-color", .string(MapLibreStyle.cssColor(colors.placeHalo))),
                        ("text-halo-width", .number(1.5)),
                    ],
                    layout: [
                        ("text-field", .array([.string("get"), .string("name")])),
                        ("text-font", .array([.string(font)])), ("text-size", size),
                        ("text-max-width", .number(100)),
                        ("symbol-sort-key", .array([.string("get"), .string("rank")])),
                    ]))
            return layers
        }

        /// `color` with its alpha multiplied by `opacity`, as a static map strokes a border.
        private static func faded(_ color: RGBAColor, _ opacity: Double) -> RGBAColor {
            RGBAColor(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha * opacity)
        }

        private static let roundLines: [(String, JSONValue)] = [
            ("line-cap", .string("round")), ("line-join", .string("round")),
        ]

        /// `["step", ["zoom"], v0, z1, v1, …]`.
        private static func step(_ values: [Double], at zooms: [Double]) -> JSONValue {
            var items: [JSONValue] = [.string("step"), .array([.string("zoom")]), .number(values[0])]
            for (zoom, value) in zip(zooms, values.dropFirst()) { items += [.number(zoom), .number(value)] }
            return .array(items)
        }

        /// A layer of the basemap source.
        private static func layer(
            _ id: String, type: String, sourceLayer: String, paint: [(String, JSONValue)],
            layout: [(String, JSONValue)] = []
        ) -> JSONValue {
            var object = JSONObject([
                ("id", .string(id)), ("type", .string(type)), ("source", .string(MapLibreStyle.basemapSourceID)),
                ("source-layer", .string(sourceLayer)),
            ])
            if !layout.isEmpty { object["layout"] = .object(JSONObject(layout)) }
            object["paint"] = .object(JSONObject(paint))
            return .object(object)
        }
    }

    /// The id of the basemap's vector source in `sources`.
    public static let basemapSourceID = "basemap"
}
