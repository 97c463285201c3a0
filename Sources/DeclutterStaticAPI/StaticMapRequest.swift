import DeclutterClustering
import DeclutterGeometry
import DeclutterStyle
import DeclutterSupport
import Foundation

/// A static-map request in Mapbox's URL shape, parsed and checked against ``StaticMapLimits`` (issue #24):
/// `/styles/v1/{username}/{style}/static/[{overlay}/]{camera}/{width}x{height}[@2x]`, so that a client swaps only
/// the host.
///
/// Declutter's choices where Mapbox's grammar leaves room: `@3x` is accepted as well as `@2x`
/// (``StaticMapLimits/maximumScale``); `padding` is accepted only with `auto` or a bounding box; a query parameter
/// Declutter does not know (Mapbox's `setfilter`, `addlayer`) is refused rather than ignored, since the image would
/// silently differ; `access_token` and `before_layer` are accepted and ignored; `format=png|svg|pdf` is Declutter's.
public struct StaticMapRequest: Sendable, Hashable {
    /// The image format.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// PNG, the default.
        case png
        /// SVG.
        case svg
        /// PDF.
        case pdf
    }

    /// The `{username}` segment; Declutter serves its own styles, so any name passes here.
    public var username: String
    /// The `{style}` segment: a Declutter style's name. Whether it exists is the server's question (404).
    public var style: String
    /// The overlays, drawn in order; empty when the URL has no overlay segment.
    public var overlays: [StaticMapOverlay]
    /// Where the map looks.
    public var camera: StaticMapCamera
    /// Width in points, 1…``StaticMapLimits/maximumWidth``.
    public var width: Int
    /// Height in points, 1…``StaticMapLimits/maximumHeight``.
    public var height: Int
    /// Pixels per point: 1, or 2…``StaticMapLimits/maximumScale`` from `@2x`, `@3x`.
    public var scale: Int
    /// `padding` in points (CSS order in the URL: top, right, bottom, left); nil when not given.
    public var padding: EdgePadding?
    /// `format`, PNG by default.
    public var format: Format
    /// `attribution`, true by default.
    public var attribution: Bool
    /// `logo`, true by default.
    public var logo: Bool
    /// `legend`: a legend of the categories on the map where it covers the fewest points, as `declutter render
    /// --legend`; false by default.
    public var legend = false
    /// `compass`: when to draw a north arrow; never by default, so that a turned map's URL draws as it always has.
    public var compass = Compass.never
    /// `scale_bar`: a scale bar in the bottom-left corner, as `declutter render --scale-bar`; false by default.
    public var scaleBar = false

    /// When to draw a north arrow.
    public enum Compass: String, Sendable, Hashable, CaseIterable {
        /// Only when the map is turned, as MapKit does.
        case auto
        /// Always.
        case always
        /// Never.
        case never
    }

    /// The query parameters understood.
    public static let parameterNames = [
        "access_token", "attribution", "before_layer", "compass", "format", "legend", "logo", "padding", "scale_bar",
    ]

    /// Creates a request from its parts; nothing is checked.
    public init(
        username: String, style: String, overlays: [StaticMapOverlay] = [], camera: StaticMapCamera, width: Int,
        height: Int,
        scale: Int = 1, padding: EdgePadding? = nil, format: Format = .png, attribution: Bool = true, logo: Bool = true
    ) {
        self.username = username
        self.style = style
        self.overlays = overlays
        self.camera = camera
        self.width = width
        self.height = height
        self.scale = scale
        self.padding = padding
        self.format = format
        self.attribution = attribution
        self.logo = logo
    }

    /// Parses a request's path (still percent-encoded, without the `?`) and its decoded query pairs.
    ///
    /// The URL's length is checked first, then each count as the bytes are scanned, so that no list or value grows
    /// past ``StaticMapLimits``.
    ///
    /// - Throws: ``StaticMapRequestError`` naming the field, with status 400 (malformed), 413 (too many points,
    ///   vertices or overlays), 414 (URL too long) or 422 (a value out of range, a custom marker image).
    public init(path: String, query: [(String, String)], limits: StaticMapLimits = StaticMapLimits()) throws {
        let urlBytes = query.reduce(path.utf8.count) { $0 + $1.0.utf8.count + $1.1.utf8.count + 2 }
        guard urlBytes <= limits.maximumURLBytes else {
            throw StaticMapRequestError(
                field: "url", message: "the URL is \(urlBytes) bytes long; the limit is \(limits.maximumURLBytes)",
                status: .uriTooLong)
        }
        let shape = "expected /styles/v1/{username}/{style}/static/[{overlay}/]{camera}/{width}x{height}[@2x]"
        var segments = path.split(separator: "/", omittingEmptySubsequences: false)
        if segments.first == "" { segments.removeFirst() }
        // Else the size would be read as the camera and the camera as an overlay, and the message would mislead.
        if segments.count > 1, segments.last == "" {
            throw StaticMapRequestError(field: "path", message: "the path ends with '/' after the size; \(shape)")
        }
        guard segments.count == 7 || segments.count == 8, segments[0] == "styles", segments[1] == "v1",
            segments[4] == "static"
        else {
            throw StaticMapRequestError(
                field: "path", message: "\"\(path.prefix(80))\" is not a static-map path; \(shape)")
        }
        guard !path.contains("?"), !path.contains("#") else {
            throw StaticMapRequestError(
                field: "path", message: "the path holds a '?' or '#'; pass the query apart, decoded")
        }
        try self.init(
            username: Self.name(segments[2], field: "username"), style: Self.name(segments[3], field: "style"),
            overlay: segments.count == 8 ? PercentEncoding.decode(segments[5], field: "overlay") : nil,
            camera: PercentEncoding.decodeText(segments[segments.count - 2], field: "camera"),
            size: PercentEncoding.decodeText(segments[segments.count - 1], field: "size"), query: query, limits: limits)
    }

    /// Parses a request from its parts as a URL's segments give them, decoded: for a request that does not come as a
    /// URL (a JSON body too long for one) and is checked the same way.
    ///
    /// - Parameters:
    ///   - username: Taken as it is.
    ///   - style: Checked as the URL's `{style}` segment.
    ///   - overlay: The overlay list's bytes, decoded; nil for none.
    ///   - camera: `lon,lat,zoom[,bearing[,pitch]]`, `[minLon,minLat,maxLon,maxLat]` or `auto`.
    ///   - size: `{width}x{height}[@2x]`.
    ///   - fitsPoints: Whether the map has points besides the overlays (a dataset's, a body's GeoJSON) for `auto` to
    ///     fit; without them `auto` needs an overlay.
    /// - Throws: ``StaticMapRequestError`` as ``init(path:query:limits:)`` does, except for the URL's length.
    public init(
        username: String = "declutter", style: String, overlay: [UInt8]?, camera: String, size: String,
        query: [(String, String)],
        limits: StaticMapLimits = StaticMapLimits(), fitsPoints: Bool = false
    ) throws {
        self.username = username
        self.style = try Self.checkedName(style, field: "style")
        if let overlay {
            var parser = OverlayListParser(bytes: overlay, limits: limits)
            overlays = try parser.parse()
        } else {
            overlays = []
        }
        self.camera = try StaticMapCamera(segment: camera)
        if self.camera == .auto && overlays.isEmpty && !fitsPoints {
            throw StaticMapRequestError(
                field: "camera", message: "auto fits the view to the overlays, and there are none",
                status: .unprocessable)
        }
        (width, height, scale) = try Self.size(size, limits: limits)
        padding = nil
        format = .png
        attribution = true
        logo = true
        try readQuery(query)
    }

    private mutating func readQuery(_ query: [(String, String)]) throws {
        var seen: Set<String> = []
        for (key, value) in query {
            guard Self.parameterNames.contains(key) else {
                throw StaticMapRequestError(
                    field: key,
                    message:
                        "unknown parameter \"\(key.prefix(40))\"; expected one of \(Self.parameterNames.joined(separator: ", "))"
                )
            }
            guard seen.insert(key).inserted else {
                throw StaticMapRequestError(field: key, message: "\(key) is given twice")
            }
            switch key {
            case "format":
                guard let format = Format(rawValue: value) else {
                    throw StaticMapRequestError(
                        field: key, message: "format \"\(value.prefix(40))\" is not png, svg or pdf")
                }
                self.format = format
            case "attribution", "logo", "legend", "scale_bar":
                guard value == "true" || value == "false" else {
                    throw StaticMapRequestError(
                        field: key, message: "\(key) \"\(value.prefix(40))\" is not true or false")
                }
                switch key {
                case "logo": logo = value == "true"
                case "legend": legend = value == "true"
                case "scale_bar": scaleBar = value == "true"
                default: attribution = value == "true"
                }
            case "compass":
                guard let compass = Compass(rawValue: value) else {
                    throw StaticMapRequestError(
                        field: key, message: "compass \"\(value.prefix(40))\" is not auto, always or never")
                }
                self.compass = compass
            case "padding":
                padding = try Self.padding(value, width: width, height: height)
                if case .center = camera {
                    throw StaticMapRequestError(
                        field: key, message: "padding applies only to an auto or bounding-box camera",
                        status: .unprocessable)
                }
            default:
                break  // access_token and before_layer: accepted for Mapbox clients, and not used.
            }
        }
    }

    /// A username or style segment, decoded and checked as ``checkedName(_:field:)``.
    private static func name(_ segment: Substring, field: String) throws -> String {
        try checkedName(PercentEncoding.decodeText(segment, field: field), field: field)
    }

    /// A username or style: 1…64 of ASCII letters, digits, `-`, `_` and `.`.
    private static func checkedName(_ text: String, field: String) throws -> String {
        guard (1...64).contains(text.count), text != ".", text != "..",
            text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
        else {
            throw StaticMapRequestError(
                field: field,
                message: "\(field) \"\(text.prefix(64))\" is not 1…64 ASCII letters, digits, '-', '_' or '.'")
        }
        return text
    }

    /// `{width}x{height}` with an optional `@2x` or `@3x`.
    private static func size(_ text: String, limits: StaticMapLimits) throws -> (Int, Int, Int) {
        var body = Substring(text), scale = 1
        if let at = body.firstIndex(of: "@") {
            let suffix = body[body.index(after: at)...]
            guard (2...3).contains(suffix.count), suffix.last == "x",
                suffix.dropLast().allSatisfy({ $0.isASCII && $0.isNumber }),
                let value = Int(suffix.dropLast())
            else {
                throw StaticMapRequestError(
                    field: "scale", message: "\"@\(suffix.prefix(12))\" is not a scale; expected @2x")
            }
            guard (2...max(2, limits.maximumScale)).contains(value), value <= limits.maximumScale else {
                let allowed = limits.maximumScale >= 3 ? "@2x…@\(limits.maximumScale)x" : "@2x"
                throw StaticMapRequestError(
                    field: "scale", message: "@\(value)x is out of range; expected \(allowed) or none",
                    status: .unprocessable)
            }
            scale = value
            body = body[..<at]
        }
        let parts = body.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty,
            body.allSatisfy({ $0 == "x" || ($0.isASCII && $0.isNumber) })
        else {
            throw StaticMapRequestError(
                field: "size",
                message: "\"\(text.prefix(24))\" is not a size; expected {width}x{height}[@2x], as 600x400")
        }
        func dimension(_ digits: Substring, _ field: String, _ maximum: Int) throws -> Int {
            // Nine digits at most, so that no count overflows; anything longer is out of range anyway.
            guard digits.count <= 9, let value = Int(digits), (1...maximum).contains(value) else {
                throw StaticMapRequestError(
                    field: field,
                    message:
                        "\(field) \(digits.count > 12 ? digits.prefix(12) + "… (\(digits.count) digits)" : digits) "
                        + "is out of range; expected 1…\(maximum)",
                    status: .unprocessable)
            }
            return value
        }
        return (
            try dimension(parts[0], "width", limits.maximumWidth),
            try dimension(parts[1], "height", limits.maximumHeight), scale
        )
    }

    /// One to four numbers as CSS gives them: all sides; vertical, horizontal; top, horizontal, bottom; or top,
    /// right, bottom, left.
    private static func padding(_ text: String, width: Int, height: Int) throws -> EdgePadding {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        var numbers: [Double] = []
        for part in parts.prefix(5) {
            guard let number = Self.number(part) else {
                throw StaticMapRequestError(
                    field: "padding",
                    message:
                        "\"\(part.prefix(24))\" is not a number; expected one to four numbers as CSS padding, as 20 or 10,20"
                )
            }
            guard number >= 0 else {
                throw StaticMapRequestError(
                    field: "padding", message: "padding \(number.messageText) is negative", status: .unprocessable)
            }
            numbers.append(number)
        }
        guard (1...4).contains(parts.count) else {
            throw StaticMapRequestError(
                field: "padding", message: "padding has \(parts.count) numbers; expected one to four, as CSS")
        }
        let top = numbers[0], right = numbers.count > 1 ? numbers[1] : top
        let bottom = numbers.count > 2 ? numbers[2] : top, left = numbers.count > 3 ? numbers[3] : right
        guard left + right < Double(width), top + bottom < Double(height) else {
            throw StaticMapRequestError(
                field: "padding", message: "padding \(text) leaves no room in a \(width)x\(height) map",
                status: .unprocessable)
        }
        return EdgePadding(top: top, left: left, bottom: bottom, right: right)
    }

    /// A plain decimal number, `-12.5`: no exponent, `+`, `nan` or `inf`, which Mapbox's grammar does not write
    /// and which would let a short text stand for a huge value.
    static func number(_ text: Substring) -> Double? {
        var digits = text
        if digits.first == "-" { digits = digits.dropFirst() }
        let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard digits.count <= 32, let whole = parts.first, !whole.isEmpty,
            whole.allSatisfy({ $0.isASCII && $0.isNumber }),
            parts.count == 1 || (!parts[1].isEmpty && parts[1].allSatisfy({ $0.isASCII && $0.isNumber }))
        else { return nil }
        return Double(text)
    }

    /// `value` as ``number(_:)`` reads it back: the shortest digits that give the same `Double`, with the decimal
    /// point moved instead of an exponent (`0.00001`, not `1e-05`).
    public static func plainText(_ value: Double) -> String {
        let shortest = value.messageText
        guard let exponentIndex = shortest.firstIndex(where: { $0 == "e" || $0 == "E" }),
            let exponent = Int(shortest[shortest.index(after: exponentIndex)...])
        else {
            return shortest
        }
        var mantissa = shortest[..<exponentIndex]
        let negative = mantissa.first == "-"
        if negative { mantissa = mantissa.dropFirst() }
        let whole = mantissa.prefix { $0 != "." }
        let digits = String(mantissa.filter { $0 != "." })
        // The decimal point sits after `point` digits; it may fall before the first digit or past the last.
        let point = whole.count + exponent
        var text: String
        if point <= 0 {
            text = "0." + String(repeating: "0", count: -point) + digits
        } else if point >= digits.count {
            text = digits + String(repeating: "0", count: point - digits.count)
        } else {
            text = String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
        }
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return (negative ? "-" : "") + text
    }
}
