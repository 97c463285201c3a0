import DeclutterGeometry
import DeclutterStyle
import DeclutterSupport

/// One item of a Mapbox-shape overlay list, drawn in list order (the last on top).
public enum StaticMapOverlay: Sendable, Hashable {
    /// `pin-s-{label}+{color}(lon,lat)` or `pin-l-…`: a marker, its label and colour optional.
    case pin(PinSize, label: PinLabel?, color: RGBAColor?, coordinate: Coordinate)
    /// `path-{strokeWidth}+{strokeColor}-{strokeOpacity}+{fillColor}-{fillOpacity}({polyline})`.
    case path(Path)
    /// `geojson({GeoJSON})`: a Feature, FeatureCollection or geometry, styled by its simplestyle-spec properties.
    case geoJSON(JSONValue)

    /// A pin's size: `pin-s` or `pin-l`.
    public enum PinSize: String, Sendable, Hashable, CaseIterable {
        /// `pin-s`.
        case small = "s"
        /// `pin-l`.
        case large = "l"
    }

    /// What a pin shows: Mapbox allows a letter, a number 0…99 or a Maki icon name.
    public enum PinLabel: Sendable, Hashable {
        /// One ASCII letter, as written (`a` or `A`).
        case letter(Character)
        /// A number 0…99.
        case number(Int)
        /// An icon name: lowercase ASCII letters, digits and hyphens, 2…``maximumIconNameLength`` characters,
        /// starting with a letter. Whether the style has such a glyph is for the renderer to say.
        case icon(String)

        /// The longest icon name accepted (Maki's longest is 24 characters).
        public static let maximumIconNameLength = 32

        /// The label a text names, as a URL's pin or a GeoJSON point's simplestyle `marker-symbol` writes it: one ASCII
        /// letter, a number 0…99 in at most two digits, or an icon name; nil for anything else.
        public init?(_ text: some StringProtocol) {
            if !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) {
                guard text.count <= 2, let value = Int(text) else { return nil }
                self = .number(value)
            } else if text.count == 1, let letter = text.first, letter.isASCII, letter.isLetter {
                self = .letter(letter)
            } else if (2...Self.maximumIconNameLength).contains(text.count), let first = text.first, first.isASCII,
                first.isLowercase, text.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") })
            {
                self = .icon(String(text))
            } else {
                return nil
            }
        }

        /// The label as a URL writes it.
        public var text: String {
            switch self {
            case let .letter(letter): String(letter)
            case let .number(number): String(number)
            case let .icon(name): name
            }
        }
    }

    /// A line, and a polygon when it has a fill colour.
    public struct Path: Sendable, Hashable {
        /// Line width in points, above 0 and at most ``maximumStrokeWidth``.
        public var strokeWidth: Double
        /// Line colour; nil leaves it to the renderer (simplestyle's default is `#555555`).
        public var strokeColor: RGBAColor?
        /// Line opacity in 0…1; nil leaves it to the renderer (simplestyle's default is 1).
        public var strokeOpacity: Double?
        /// Fill colour; nil draws no fill.
        public var fillColor: RGBAColor?
        /// Fill opacity in 0…1; nil leaves it to the renderer (simplestyle's default is 0.6).
        public var fillOpacity: Double?
        /// The vertices, at least 2, decoded from a precision-5 encoded polyline.
        public var coordinates: [Coordinate]

        /// The widest line accepted.
        public static let maximumStrokeWidth = 100.0

        /// Creates a path; only the width and vertices are required.
        public init(
            strokeWidth: Double, strokeColor: RGBAColor? = nil, strokeOpacity: Double? = nil,
            fillColor: RGBAColor? = nil,
            fillOpacity: Double? = nil, coordinates: [Coordinate]
        ) {
            self.strokeWidth = strokeWidth
            self.strokeColor = strokeColor
            self.strokeOpacity = strokeOpacity
            self.fillColor = fillColor
            self.fillOpacity = fillOpacity
            self.coordinates = coordinates
        }
    }

    /// The overlay as a URL's overlay list writes it, before percent-encoding.
    public var text: String {
        switch self {
        case let .pin(size, label, color, coordinate):
            return "pin-\(size.rawValue)" + (label.map { "-\($0.text)" } ?? "")
                + (color.map { "+" + Self.hex($0) } ?? "")
                + "(\(StaticMapRequest.plainText(coordinate.longitude)),\(StaticMapRequest.plainText(coordinate.latitude)))"
        case let .path(path):
            var text = "path-\(StaticMapRequest.plainText(path.strokeWidth))"
            // A fill needs a stroke colour before it, so one stands in for a stroke left to the renderer.
            if path.strokeColor != nil || path.strokeOpacity != nil || path.fillColor != nil {
                text += "+" + Self.hex(path.strokeColor ?? RGBAColor(red: 1 / 3, green: 1 / 3, blue: 1 / 3))
                if let opacity = path.strokeOpacity { text += "-\(StaticMapRequest.plainText(opacity))" }
            }
            if let fill = path.fillColor {
                text += "+" + Self.hex(fill)
                if let opacity = path.fillOpacity { text += "-\(StaticMapRequest.plainText(opacity))" }
            }
            return text + "(\(Polyline.encode(path.coordinates, precision: 5)))"
        case let .geoJSON(value):
            return "geojson(\(value.jsonText))"
        }
    }

    /// Six lowercase hexadecimal digits, no `#`.
    private static func hex(_ color: RGBAColor) -> String {
        String(RGBAColor(red: color.red, green: color.green, blue: color.blue).hexString.dropFirst()).lowercased()
    }
}
