import DeclutterClustering
import DeclutterGeometry
import DeclutterInput
import DeclutterMap
import DeclutterMapContent
import DeclutterRender
import DeclutterStaticAPI
import DeclutterStyle
import DeclutterSupport
import Foundation

extension MapDrawing {
    /// The drawing a Mapbox-shape request asks for: pins and the points of GeoJSON overlays are clustered and placed
    /// with the style, paths and GeoJSON lines and polygons are drawn under them.
    ///
    /// Markers are the style's, so that they cluster and keep apart. A pin's colour, or a GeoJSON point's
    /// simplestyle `marker-color`, is the style's category of that colour, or one added for it, with the pin's
    /// label as its glyph (``category(for:label:)``); without a colour, the first category.
    ///
    /// - Throws: ``ServerError`` 422 for a pin icon the style lacks, 400 for a GeoJSON overlay that is not GeoJSON.
    public init(request: StaticMapRequest, style: MarkerStyle) throws {
        self.init(
            style: style, camera: request.camera, width: request.width, height: request.height, padding: request.padding
        )
        map.scale = Double(request.scale)
        format = OutputFormat(rawValue: request.format.rawValue) ?? .png
        map.furniture.attribution = request.attribution ? nil : ""
        map.furniture.legend = request.legend
        map.furniture.compass = MapFurniture.CompassChoice(rawValue: request.compass.rawValue) ?? .never
        map.furniture.scaleBar = request.scaleBar
        for (number, overlay) in request.overlays.enumerated() {
            switch overlay {
            case let .pin(size, label, color, coordinate):
                let category: String?
                do {
                    category = try self.category(for: color, label: label, size: size)
                } catch var error as ServerError {
                    // Numbered from 1, as the URL's parser numbers the overlays it refuses.
                    error.message = "overlay \(number + 1): " + error.message
                    throw error
                }
                map.points.append(
                    ClusterPoint(
                        longitude: coordinate.longitude, latitude: coordinate.latitude, id: .number(Double(number)),
                        category: category))
            case let .path(path):
                var paint = ShapePaint(
                    stroke: path.strokeColor ?? RGBAColor(red: 1 / 3, green: 1 / 3, blue: 1 / 3),
                    width: path.strokeWidth,
                    opacity: path.strokeOpacity ?? 1)
                paint.fill = path.fillColor.map {
                    RGBAColor(red: $0.red, green: $0.green, blue: $0.blue, alpha: path.fillOpacity ?? 0.6)
                }
                map.overlays.append(
                    MapOverlay(
                        .shapes([MapShape(kind: paint.fill == nil ? .line : .polygon, rings: [path.coordinates])]),
                        paint: paint))
            case let .geoJSON(value):
                try addGeoJSON(value, number: number + 1)
            }
        }
    }

    /// A GeoJSON overlay's points as markers, its lines and polygons in their simplestyle paint (`stroke`,
    /// `stroke-width`, `stroke-opacity`, `fill`, `fill-opacity`), the style's overlay paint where a feature gives none.
    mutating func addGeoJSON(_ value: JSONValue, number: Int) throws {
        let name = "overlay \(number)"
        // The point reader takes features; a bare geometry becomes one.
        let type = value.object?["type"]?.string
        let features =
            type == "Feature" || type == "FeatureCollection"
            ? value
            : .object(
                JSONObject([("type", .string("Feature")), ("geometry", value), ("properties", .object(JSONObject()))]))
        do {
            let reader = PointReader(categoryProperty: "marker-color", skipInvalid: true)
            for var point in try reader.read(geoJSON: features, name: name).points where point.location != nil {
                let (label, size) = try Self.pinLook(point.properties, overlay: name)
                do {
                    point.category = try category(
                        for: point.category.flatMap { RGBAColor(hex: $0.hasPrefix("#") ? $0 : "#" + $0) },
                        label: label, size: size)
                } catch var error as ServerError {
                    error.message = "\(name): " + error.message
                    throw error
                }
                map.points.append(point)
            }
            // Each feature's lines and polygons in its own simplestyle paint.
            for feature in features.object?["features"]?.array ?? [features] {
                let shapes = try MapShape.read(geoJSON: feature, file: name)
                guard !shapes.isEmpty else { continue }
                map.overlays.append(
                    MapOverlay(
                        .shapes(shapes),
                        paint: Self.paint(feature.object?["properties"]?.object, base: map.style.map.overlay)))
            }
        } catch let error as InputError {
            throw ServerError(error, field: "overlay")
        }
    }

    /// A GeoJSON point's pin as simplestyle gives it: `marker-symbol` a letter, a number 0…99 or an icon name, as a
    /// pin's label; `marker-size` `small` a small pin, `medium` (the default) and `large` a large one, as Mapbox's
    /// static images draw them.
    ///
    /// - Throws: ``ServerError`` 422 for another symbol or size, which would otherwise be drawn unlike what it asks.
    static func pinLook(_ properties: JSONObject, overlay: String) throws -> (
        StaticMapOverlay.PinLabel?, StaticMapOverlay.PinSize
    ) {
        var label: StaticMapOverlay.PinLabel?
        if let symbol = properties["marker-symbol"], symbol != .null {
            let text = symbol.string ?? symbol.number.map(JSONValue.format) ?? ""
            guard let parsed = StaticMapOverlay.PinLabel(text) else {
                throw ServerError(
                    .unprocessableContent, field: "overlay",
                    "\(overlay): marker-symbol \(symbol.jsonText.prefix(40)) is not a letter, a number 0…99 "
                        + "or an icon name")
            }
            label = parsed
        }
        switch properties["marker-size"] {
        case nil, .null?, .string("medium")?, .string("large")?: return (label, .large)
        case .string("small")?: return (label, .small)
        case let size?:
            throw ServerError(
                .unprocessableContent, field: "overlay",
                "\(overlay): marker-size \(size.jsonText.prefix(40)) is not small, medium or large")
        }
    }

    /// simplestyle's paint from a feature's properties over `base`: a fill only when the feature or `base` has one,
    /// its opacity 0.6 unless given, as simplestyle's default; widths within 0…100 points, opacities within 0…1.
    static func paint(_ properties: JSONObject?, base: ShapePaint) -> ShapePaint {
        guard let properties else { return base }
        func color(_ key: String) -> RGBAColor? {
            properties[key]?.string.flatMap { RGBAColor(hex: $0.hasPrefix("#") ? $0 : "#" + $0) }
        }
        func number(_ key: String, in range: ClosedRange<Double>) -> Double? {
            properties[key]?.number.map { min(max($0, range.lowerBound), range.upperBound) }
        }
        var paint = base
        if let stroke = color("stroke") { paint.stroke = stroke }
        if let width = number("stroke-width", in: 0...StaticMapOverlay.Path.maximumStrokeWidth) { paint.width = width }
        if let opacity = number("stroke-opacity", in: 0...1) { paint.opacity = opacity }
        if let fill = color("fill") ?? paint.fill {
            let alpha = number("fill-opacity", in: 0...1) ?? (color("fill") != nil ? 0.6 : fill.alpha)
            paint.fill = RGBAColor(red: fill.red, green: fill.green, blue: fill.blue, alpha: alpha)
        }
        return paint
    }

    /// Categories a request may add to its style for its markers: each colour, label and size asked for is one. Past
    /// them the request is refused rather than a marker drawn otherwise than asked; the bound keeps the style's
    /// lookups short for 10,000 markers.
    public static let maximumAddedCategories = 256

    /// A small pin's balloon against the style's, which a large pin takes: Mapbox's `pin-s` and `pin-l`.
    static let smallPinScale = 0.75

    /// The category of a pin of `size` asked for in `color` with `label`: ``category(for:label:)``'s, and for a small
    /// pin its variant `NAME small` whose balloon is ``smallPinScale`` of the style's (added to ``style`` like the
    /// rest).
    mutating func category(for color: RGBAColor?, label: StaticMapOverlay.PinLabel?, size: StaticMapOverlay.PinSize)
        throws -> String?
    {
        let name = try category(for: color, label: label)
        guard let name, size == .small else { return name }
        let small = name + " small"
        if map.style.category(named: small) != nil { return small }
        guard var variant = map.style.category(named: name) else { return name }
        try checkRoomForACategory()
        variant.name = small
        variant.balloonScale = Self.smallPinScale
        map.style.categories.append(variant)
        return small
    }

    /// The category of a marker asked for in `color` with `label`, so that it is drawn as asked, clusters with the
    /// others, and shows as its own slice of a cluster:
    /// - no colour and no label: the style's first category;
    /// - an icon label names a category of the style (`pin-s-bicycle` in TANDm's), drawn with its glyph, in its
    ///   colour unless one is given;
    /// - a letter or number label: the first category in the colour asked for (its own without one), that text as
    ///   its glyph;
    /// - a colour alone: the style's category of exactly that colour, else the category of the nearest colour
    ///   redrawn in it.
    ///
    /// A category made so is added to ``style`` (with its priority and clustering identifier), named by its colour
    /// and label.
    ///
    /// - Throws: ``ServerError`` 422 for an icon label the style has no category for, or past
    ///   ``maximumAddedCategories``.
    mutating func category(for color: RGBAColor?, label: StaticMapOverlay.PinLabel? = nil) throws -> String? {
        guard var added = map.style.categories.first else { return nil }
        var glyph: Glyph?
        switch label {
        case let .icon(name)?:
            guard let named = map.style.category(named: name) else {
                // Only the style's own categories whose names a URL can write as an icon: not those added for colours.
                let icons = map.style.categories.prefix(baseCategoryCount).map(\.name).filter(Self.isIconName)
                throw ServerError(
                    .unprocessableContent, field: "overlay",
                    "the pin icon \"\(name)\" is not a category of the style; "
                        + (icons.isEmpty ? "it has no icons; use" : "icons: \(icons.joined(separator: ", ")), or")
                        + " a letter or a number 0…99")
            }
            guard let color, color != named.color else { return named.name }
            added = named
            glyph = named.glyph
        case let .some(label):
            glyph = .text(label.text)
        case nil:
            guard let color else { return added.name }
            if let same = map.style.categories.first(where: { $0.color == color }) { return same.name }
            added = Self.category(nearest: color, in: map.style) ?? added
            glyph = added.glyph
        }
        let name = [(color ?? added.color).hexString, label?.text].compactMap { $0 }.joined(separator: " ")
        if map.style.category(named: name) != nil { return name }
        try checkRoomForACategory()
        added.name = name
        added.color = color ?? added.color
        added.glyph = glyph
        added.glyphColor = Self.glyphColor(on: added.color, style: map.style.balloon.glyphColor)
        added.solidCluster = false
        map.style.categories.append(added)
        return name
    }

    /// Throws unless the request may add one more category (``maximumAddedCategories``).
    func checkRoomForACategory() throws {
        guard map.style.categories.count - baseCategoryCount < Self.maximumAddedCategories else {
            throw ServerError(
                .unprocessableContent, field: "overlay",
                "the markers ask for more than \(Self.maximumAddedCategories) kinds of marker (each colour, label and "
                    + "size is one); at most \(Self.maximumAddedCategories)")
        }
    }

    /// The glyph colour for a balloon tinted `fill`: the style's, unless it is too faint on it (a contrast ratio under
    /// 2, as white on yellow), then black or white, whichever shows more. Mapbox's pins take any colour, and a white
    /// label on a white pin is no label.
    static func glyphColor(on fill: RGBAColor, style: RGBAColor) -> RGBAColor? {
        guard fill.contrastRatio(with: style) < 2 else { return nil }
        let black = RGBAColor(red: 0, green: 0, blue: 0), white = RGBAColor(red: 1, green: 1, blue: 1)
        return fill.contrastRatio(with: black) >= fill.contrastRatio(with: white) ? black : white
    }

    /// Whether a URL can name `name` as a pin's icon: lowercase ASCII letters, digits and hyphens, starting with a
    /// letter, 2 to ``StaticMapOverlay/PinLabel/maximumIconNameLength`` characters (a single letter is a label).
    static func isIconName(_ name: String) -> Bool {
        if case .icon? = StaticMapOverlay.PinLabel(name) { return true }
        return false
    }

    /// `style`'s category whose colour is nearest `color` (in sRGB), the first category without one.
    static func category(nearest color: RGBAColor?, in style: MarkerStyle) -> MarkerCategory? {
        guard let color else { return style.categories.first }
        func distance(_ other: RGBAColor) -> Double {
            let red = other.red - color.red, green = other.green - color.green, blue = other.blue - color.blue
            return red * red + green * green + blue * blue
        }
        return style.categories.min { distance($0.color) < distance($1.color) }
    }
}
