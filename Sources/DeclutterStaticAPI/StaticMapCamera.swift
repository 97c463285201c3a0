import DeclutterClustering
import DeclutterGeometry
import DeclutterSupport

/// Where a static map looks, as the `{camera}` segment of a Mapbox-shape URL gives it.
public enum StaticMapCamera: Sendable, Hashable {
    /// `lon,lat,zoom[,bearing[,pitch]]`: a centre, a zoom in ``zoomRange`` rounded to two decimal places as Mapbox
    /// rounds it, counting Mapbox's 512-pixel tiles (``cameraZoom``), a bearing in 0…360 degrees and a pitch in 0…60
    /// degrees (both 0 when left out).
    case center(Coordinate, zoom: Double, bearing: Double, pitch: Double)
    /// `[minLon,minLat,maxLon,maxLat]`: the view fitted to a bounding box, from minLon eastwards to maxLon (across the
    /// antimeridian when maxLon is less than minLon, as GeoJSON's `bbox`).
    case boundingBox(southWest: Coordinate, northEast: Coordinate)
    /// `auto`: the view fitted to the overlays.
    case auto

    /// The zooms a URL takes. Mapbox's zoom counts the 512-pixel tiles of Mapbox GL and MapLibre (at zoom 0 the world
    /// is 512 pixels across), one fewer than a camera's 256-point tiles; the deepest camera zoom, 22, is 21 here.
    public static let zoomRange = 0.0...(MapCamera.zoomRange.upperBound - 1)

    /// The camera zoom of a URL's zoom, which counts 512-pixel tiles: one more. So the same URL shows the same part of
    /// the world as Mapbox's, and a dataset's map at zoom z what its web map shows at z.
    public static func cameraZoom(_ zoom: Double) -> Double { zoom + 1 }

    /// Web Mercator's latitude limit, as Mapbox checks it: ±85.0511°.
    public static let latitudeRange = -85.0511...85.0511
    /// Bearings in degrees.
    public static let bearingRange = 0.0...360.0
    /// Pitches in degrees, as Mapbox allows them: the camera's.
    public static let pitchRange = Perspective.pitchRange

    /// Parses a decoded camera segment.
    ///
    /// - Throws: ``StaticMapRequestError`` with field `camera`: 400 for the wrong shape, 422 for a value out of range.
    init(segment text: String) throws {
        if text == "auto" {
            self = .auto
            return
        }
        if text.hasPrefix("[") {
            guard text.hasSuffix("]") else {
                throw StaticMapRequestError(field: "camera", message: "the bounding box \"\(text)\" has no closing ']'")
            }
            let numbers = try Self.numbers(
                text.dropFirst().dropLast(), expected: 4...4,
                shape: "a bounding box [minLon,minLat,maxLon,maxLat]")
            let southWest = try Self.coordinate(longitude: numbers[0], latitude: numbers[1])
            let northEast = try Self.coordinate(longitude: numbers[2], latitude: numbers[3])
            // A box whose maxLon is less than its minLon crosses the antimeridian, as GeoJSON's bbox does.
            guard southWest.longitude != northEast.longitude, southWest.latitude < northEast.latitude else {
                throw StaticMapRequestError(
                    field: "camera",
                    message: "the bounding box \(text) is empty; expected minLon ≠ maxLon (a maxLon below minLon "
                        + "crosses the antimeridian) and minLat < maxLat",
                    status: .unprocessable)
            }
            self = .boundingBox(southWest: southWest, northEast: northEast)
            return
        }
        let numbers = try Self.numbers(
            text[...], expected: 3...5,
            shape: "lon,lat,zoom[,bearing[,pitch]], [minLon,minLat,maxLon,maxLat] or auto")
        let center = try Self.coordinate(longitude: numbers[0], latitude: numbers[1])
        let zoom = numbers[2], bearing = numbers.count > 3 ? numbers[3] : 0, pitch = numbers.count > 4 ? numbers[4] : 0
        try Self.check(zoom, in: Self.zoomRange, "zoom")
        try Self.check(bearing, in: Self.bearingRange, "bearing")
        try Self.check(pitch, in: Self.pitchRange, "pitch")
        // Mapbox rounds a fractional zoom to two decimal places; the same URL then draws the same map on both.
        self = .center(center, zoom: (zoom * 100).rounded() / 100, bearing: bearing, pitch: pitch)
    }

    /// The segment as a URL writes it, bearing and pitch only when not 0.
    var segment: String {
        switch self {
        case .auto:
            return "auto"
        case let .boundingBox(southWest, northEast):
            return "["
                + [southWest.longitude, southWest.latitude, northEast.longitude, northEast.latitude].map(
                    StaticMapRequest.plainText
                ).joined(separator: ",") + "]"
        case let .center(center, zoom, bearing, pitch):
            var numbers = [center.longitude, center.latitude, zoom]
            if bearing != 0 || pitch != 0 { numbers.append(bearing) }
            if pitch != 0 { numbers.append(pitch) }
            return numbers.map(StaticMapRequest.plainText).joined(separator: ",")
        }
    }

    private static func numbers(_ text: Substring, expected: ClosedRange<Int>, shape: String) throws -> [Double] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        var numbers: [Double] = []
        for part in parts.prefix(expected.upperBound + 1) {
            guard let number = StaticMapRequest.number(part) else {
                throw StaticMapRequestError(
                    field: "camera", message: "\"\(part)\" in \"\(text)\" is not a number; expected \(shape)")
            }
            numbers.append(number)
        }
        guard expected.contains(parts.count) else {
            throw StaticMapRequestError(
                field: "camera", message: "\"\(text)\" has \(parts.count) numbers; expected \(shape)")
        }
        return numbers
    }

    /// A coordinate checked against Mapbox's ranges, with field `camera`.
    private static func coordinate(longitude: Double, latitude: Double) throws -> Coordinate {
        try check(longitude, in: -180...180, "longitude")
        try check(latitude, in: latitudeRange, "latitude")
        return Coordinate(longitude: longitude, latitude: latitude)
    }

    private static func check(_ value: Double, in range: ClosedRange<Double>, _ name: String) throws {
        guard range.contains(value) else {
            throw StaticMapRequestError(
                field: "camera",
                message:
                    "\(name) \(value.messageText) is out of range; expected \(range.lowerBound.messageText)…\(range.upperBound.messageText)",
                status: .unprocessable)
        }
    }
}
