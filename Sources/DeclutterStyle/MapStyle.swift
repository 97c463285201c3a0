import DeclutterSupport

/// How a static map looks under and around the markers: background, world basemap, routes, overlays, circles.
public struct MapStyle: Sendable, Hashable {
    /// The colour behind everything: the whole map without a basemap, and under tiles.
    public var background: RGBAColor
    /// The sea of the embedded world basemap.
    public var sea: RGBAColor
    /// Land of the embedded world basemap: its fill (the land is cut into cells, so its outline is not stroked;
    /// borders are ``countryBorder`` and ``stateBorder``).
    public var land: ShapePaint
    /// Lakes and rivers of the embedded world basemap; nil takes ``sea``.
    public var water: RGBAColor?
    /// The width of the largest rivers in points at zoom 8 and above (thinner further out).
    public var riverWidth: Double
    /// Country borders of the embedded world basemap.
    public var countryBorder: ShapePaint
    /// State and province borders of the embedded world basemap, dashed, from zoom 4.
    public var stateBorder: ShapePaint
    /// Place names of the embedded world basemap.
    public var placeLabel: RGBAColor
    /// The halo around place names.
    public var placeHalo: RGBAColor
    /// The square drawn where a tile is missing.
    public var missingTile: RGBAColor
    /// Routes (MapKit's route overlay: a blue line with a darker casing).
    public var route: ShapePaint
    /// The casing drawn under a route, this much wider than the route on each side; 0 draws none.
    public var routeCasing: Double
    /// GeoJSON overlay layers.
    public var overlay: ShapePaint
    /// Circles with a radius in metres.
    public var circle: ShapePaint
    /// Text colour of the attribution and the scale bar.
    public var text: RGBAColor
    /// How close points merge in the clustering index, in map points; nil (the default) takes half the smallest
    /// cluster icon (``MarkerStyle/clusterRadius``). The index only pre-groups points: placement then merges the
    /// groups whose views overlap, so a radius about half an icon wide leaves the clusters to what is drawn.
    public var clusterRadius: Double?

    /// The default look: OpenStreetMap-like pale land on blue water, purple-grey borders, dark grey names on a
    /// white halo, an iOS-blue route.
    public init(
        background: RGBAColor = RGBAColor(hex: "#F2EFE9") ?? .white,
        sea: RGBAColor = RGBAColor(hex: "#AAD3DF") ?? .white,
        land: ShapePaint = ShapePaint(
            stroke: RGBAColor(hex: "#C9C2B6") ?? .black, width: 0.5, fill: RGBAColor(hex: "#F2EFE9")),
        water: RGBAColor? = nil,
        riverWidth: Double = 1.2,
        countryBorder: ShapePaint = ShapePaint(stroke: RGBAColor(hex: "#9E88B0") ?? .black, width: 1),
        stateBorder: ShapePaint = ShapePaint(stroke: RGBAColor(hex: "#B9AFC4") ?? .black, width: 0.6),
        placeLabel: RGBAColor = RGBAColor(hex: "#404040") ?? .black,
        placeHalo: RGBAColor = RGBAColor(hex: "#FFFFFFD9") ?? .white,
        missingTile: RGBAColor = RGBAColor(hex: "#E0E0E0") ?? .white,
        route: ShapePaint = ShapePaint(stroke: RGBAColor(hex: "#007AFF") ?? .black, width: 5),
        routeCasing: Double = 1.5,
        overlay: ShapePaint = ShapePaint(
            stroke: RGBAColor(hex: "#D55E00") ?? .black, width: 2, fill: RGBAColor(hex: "#D55E0033")),
        circle: ShapePaint = ShapePaint(
            stroke: RGBAColor(hex: "#0072B2") ?? .black, width: 2, fill: RGBAColor(hex: "#0072B233")),
        text: RGBAColor = RGBAColor(hex: "#333333") ?? .black,
        clusterRadius: Double? = nil
    ) {
        self.background = background
        self.sea = sea
        self.land = land
        self.water = water
        self.riverWidth = riverWidth
        self.countryBorder = countryBorder
        self.stateBorder = stateBorder
        self.placeLabel = placeLabel
        self.placeHalo = placeHalo
        self.missingTile = missingTile
        self.route = route
        self.routeCasing = routeCasing
        self.overlay = overlay
        self.circle = circle
        self.text = text
        self.clusterRadius = clusterRadius
    }
}

extension MapStyle: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case background, sea, land, water, riverWidth, countryBorder, stateBorder, placeLabel, placeHalo
        case missingTile, route, routeCasing, overlay, circle, text, clusterRadius
    }

    /// Decodes the fields present, taking the defaults for the rest.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = MapStyle()
        self.init(
            background: try container.decodeIfPresent(RGBAColor.self, forKey: .background) ?? defaults.background,
            sea: try container.decodeIfPresent(RGBAColor.self, forKey: .sea) ?? defaults.sea,
            land: try container.decodeIfPresent(ShapePaint.self, forKey: .land) ?? defaults.land,
            water: try container.decodeIfPresent(RGBAColor.self, forKey: .water),
            riverWidth: try container.decode(
                Double.self, forKey: .riverWidth, default: defaults.riverWidth,
                where: { (0...20).contains($0) }, expected: "a width of 0…20 points"),
            countryBorder: try container.decodeIfPresent(ShapePaint.self, forKey: .countryBorder)
                ?? defaults.countryBorder,
            stateBorder: try container.decodeIfPresent(ShapePaint.self, forKey: .stateBorder) ?? defaults.stateBorder,
            placeLabel: try container.decodeIfPresent(RGBAColor.self, forKey: .placeLabel) ?? defaults.placeLabel,
            placeHalo: try container.decodeIfPresent(RGBAColor.self, forKey: .placeHalo) ?? defaults.placeHalo,
            missingTile: try container.decodeIfPresent(RGBAColor.self, forKey: .missingTile) ?? defaults.missingTile,
            route: try container.decodeIfPresent(ShapePaint.self, forKey: .route) ?? defaults.route,
            routeCasing: try container.decode(
                Double.self, forKey: .routeCasing, default: defaults.routeCasing,
                where: { (0...20).contains($0) }, expected: "a casing of 0…20 points"),
            overlay: try container.decodeIfPresent(ShapePaint.self, forKey: .overlay) ?? defaults.overlay,
            circle: try container.decodeIfPresent(ShapePaint.self, forKey: .circle) ?? defaults.circle,
            text: try container.decodeIfPresent(RGBAColor.self, forKey: .text) ?? defaults.text,
            clusterRadius: try container.decodeIfPresent(Double.self, forKey: .clusterRadius).map { radius in
                guard (1...512).contains(radius) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .clusterRadius, in: container,
                        debugDescription: "expected a radius of 1…512 points")
                }
                return radius
            })
    }

    /// Encodes every field.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(background, forKey: .background)
        try container.encode(sea, forKey: .sea)
        try container.encode(land, forKey: .land)
        try container.encodeIfPresent(water, forKey: .water)
        try container.encode(riverWidth, forKey: .riverWidth)
        try container.encode(countryBorder, forKey: .countryBorder)
        try container.encode(stateBorder, forKey: .stateBorder)
        try container.encode(placeLabel, forKey: .placeLabel)
        try container.encode(placeHalo, forKey: .placeHalo)
        try container.encode(missingTile, forKey: .missingTile)
        try container.encode(route, forKey: .route)
        try container.encode(routeCasing, forKey: .routeCasing)
        try container.encode(overlay, forKey: .overlay)
        try container.encode(circle, forKey: .circle)
        try container.encode(text, forKey: .text)
        try container.encodeIfPresent(clusterRadius, forKey: .clusterRadius)
    }
}
