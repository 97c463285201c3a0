import DeclutterSupport
import Foundation

/// Why a camera cannot be made.
public struct CameraError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong, naming the value and what was expected.
    public var message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

/// What a static map shows: a centre, a fractional zoom, a bearing, a pitch and a size, in Web Mercator.
///
/// Zoom z shows the world `256·2^z` points wide at the map's centre, as MapKit, Google and OpenStreetMap tiles count
/// it; bearing is the compass direction at the top of the map in degrees clockwise from north (MapKit's camera
/// heading); pitch tilts the camera back from looking straight down, in perspective (see ``Perspective``).
/// Markers stay upright; only positions turn and tilt.
public struct MapCamera: Sendable, Hashable {
    /// Points per tile at zoom 0.
    public static let tileSize = 256.0
    /// The zooms a camera accepts.
    public static let zoomRange = 0.0...22.0
    /// ``zoomRange`` as messages give it: `0…22`.
    public static var zoomRangeText: String { "\(Int(zoomRange.lowerBound))…\(Int(zoomRange.upperBound))" }

    /// The coordinate at the centre of the map.
    public var center: Coordinate
    /// The zoom, fractional allowed.
    public var zoom: Double
    /// Degrees clockwise from north at the top of the map.
    public var bearing: Double
    /// Degrees the camera leans back from looking straight down, within ``Perspective/pitchRange``.
    public var pitch: Double
    /// Width in points.
    public var width: Double
    /// Height in points.
    public var height: Double

    /// Creates a camera, checking every value.
    ///
    /// - Throws: ``CameraError`` for a zoom outside ``zoomRange``, a pitch outside ``Perspective/pitchRange``, a
    ///   coordinate outside the world or a size below 1 point.
    public init(center: Coordinate, zoom: Double, bearing: Double = 0, pitch: Double = 0, width: Double, height: Double)
        throws
    {
        guard zoom.isFinite, Self.zoomRange.contains(zoom) else {
            throw CameraError(
                "zoom \(zoom.messageText) is out of range; expected \(Int(Self.zoomRange.lowerBound))…\(Int(Self.zoomRange.upperBound))"
            )
        }
        guard center.latitude.isFinite, abs(center.latitude) <= WebMercator.maximumLatitude else {
            throw CameraError(
                "centre latitude \(center.latitude) is out of range; expected -85.05…85.05 (Web Mercator)")
        }
        guard center.longitude.isFinite, (-180...180).contains(center.longitude) else {
            throw CameraError("centre longitude \(center.longitude) is out of range; expected -180…180")
        }
        guard bearing.isFinite else { throw CameraError("bearing \(bearing) is not a number of degrees") }
        try Self.check(pitch: pitch)
        guard width.isFinite, height.isFinite, width >= 1, height >= 1 else {
            throw CameraError("map size \(width)×\(height) is too small; expected at least 1×1 points")
        }
        self.center = center
        self.zoom = zoom
        self.bearing = Self.normalized(bearing: bearing)
        self.pitch = pitch
        self.width = width
        self.height = height
    }

    /// The camera's tilt; flat for pitch 0.
    public var perspective: Perspective { Perspective(pitch: pitch, width: width, height: height) }

    /// The width of the whole world in points at this zoom.
    public var worldSize: Double { Self.tileSize * pow(2, zoom) }

    /// The centre in world units.
    public var centerWorld: (x: Double, y: Double) {
        (WebMercator.x(longitude: center.longitude), WebMercator.y(latitude: center.latitude))
    }

    /// Where a coordinate appears, in points from the map's top-left corner.
    public func point(for coordinate: Coordinate) -> (x: Double, y: Double) {
        point(
            worldX: WebMercator.x(longitude: coordinate.longitude), worldY: WebMercator.y(latitude: coordinate.latitude)
        )
    }

    /// Where a world point appears, in points from the map's top-left corner.
    public func point(worldX: Double, worldY: Double) -> (x: Double, y: Double) {
        projection.point(worldX: worldX, worldY: worldY)
    }

    /// The camera's projection with its centre, scale and rotation worked out once, for projecting many points
    /// (a route's vertices, every annotation) without repeating the trigonometry per point.
    public var projection: Projection { Projection(self) }

    /// World points to map points for one camera; see ``MapCamera/projection``.
    public struct Projection: Sendable {
        private let centerX: Double, centerY: Double, size: Double
        private let halfWidth: Double, halfHeight: Double
        private let turned: Bool, cosine: Double, sine: Double
        /// The tilt, applied after the turn.
        public let perspective: Perspective

        init(_ camera: MapCamera) {
            (centerX, centerY) = camera.centerWorld
            size = camera.worldSize
            halfWidth = camera.width / 2
            halfHeight = camera.height / 2
            turned = camera.bearing != 0
            let angle = camera.bearing * Double.pi / 180
            cosine = cos(angle)
            sine = sin(angle)
            perspective = camera.perspective
        }

        /// Where a world point appears, in points from the map's top-left corner; on a pitched map, only for points
        /// in front of the camera (see ``flatPoint(worldX:worldY:)`` and ``Perspective/nearFlatY``).
        @inline(__always)
        public func point(worldX: Double, worldY: Double) -> (x: Double, y: Double) {
            let flat = flatPoint(worldX: worldX, worldY: worldY)
            return perspective.isFlat ? flat : perspective.point(flatX: flat.x, flatY: flat.y)
        }

        /// Where a world point appears on the flat map (the same camera with no pitch).
        @inline(__always)
        public func flatPoint(worldX: Double, worldY: Double) -> (x: Double, y: Double) {
            let dx = (worldX - centerX) * size, dy = (worldY - centerY) * size
            guard turned else { return (halfWidth + dx, halfHeight + dy) }
            // Turning the map so that the bearing is up turns the world anticlockwise by the bearing.
            return (halfWidth + dx * cosine + dy * sine, halfHeight - dx * sine + dy * cosine)
        }

        /// Where a coordinate appears, in points from the map's top-left corner.
        @inline(__always)
        public func point(for coordinate: Coordinate) -> (x: Double, y: Double) {
            point(
                worldX: WebMercator.x(longitude: coordinate.longitude),
                worldY: WebMercator.y(latitude: coordinate.latitude))
        }
    }

    /// The coordinate shown at a point of the map.
    public func coordinate(atX x: Double, y: Double) -> Coordinate {
        let world = worldPoint(atX: x, y: y)
        return Coordinate(longitude: WebMercator.longitude(x: world.x), latitude: WebMercator.latitude(y: world.y))
    }

    /// The world point shown at a point of the map (unclamped: it may lie outside 0…1).
    ///
    /// On a pitched map the point must show ground: every point of the map does up to 60°, and points near it
    /// do too (see ``Perspective/horizonY``); at or above the horizon the result is not finite.
    public func worldPoint(atX x: Double, y: Double) -> (x: Double, y: Double) {
        guard let flat = perspective.flatPoint(x: x, y: y) else { return (.nan, .nan) }
        return flatWorldPoint(atX: flat.x, y: flat.y)
    }

    /// The world point at a point of the flat map (the same camera with no pitch).
    public func flatWorldPoint(atX x: Double, y: Double) -> (x: Double, y: Double) {
        let sx = x - width / 2, sy = y - height / 2
        let angle = bearing * Double.pi / 180, cosine = cos(angle), sine = sin(angle)
        let dx = sx * cosine - sy * sine, dy = sx * sine + sy * cosine
        let (centerX, centerY) = centerWorld, size = worldSize
        return (centerX + dx / size, centerY + dy / size)
    }

    /// The world box covering everything the map shows (for a turned or pitched map, the box around its four
    /// corners: the ground a pitched map shows is the flat map's trapezoid between them).
    public var visibleWorldBounds: WorldBounds {
        var bounds = WorldBounds()
        for (x, y) in [(0, 0), (width, 0), (0, height), (width, height)] {
            let world = worldPoint(atX: x, y: y)
            bounds.include(x: world.x, y: world.y)
        }
        return bounds
    }

    /// Ground metres per point at the centre of the map.
    public var metersPerPoint: Double {
        40_075_016.686 * cos(center.latitude * Double.pi / 180) / worldSize
    }

    /// `degrees` as 0 ≤ bearing < 360; fmod is exact, so any finite bearing keeps its angle.
    static func normalized(bearing degrees: Double) -> Double {
        (degrees.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
    }

    /// Throws unless `pitch` is within ``Perspective/pitchRange``.
    static func check(pitch: Double) throws {
        guard pitch.isFinite, Perspective.pitchRange.contains(pitch) else {
            throw CameraError("pitch \(pitch.messageText) is out of range; expected 0…60 degrees")
        }
    }

    /// The camera that shows a world box inside the padded map, as large as fits, at most `maxZoom`.
    ///
    /// Like MapKit's visible map rect with edge padding: the box is centred in the space the padding leaves.
    /// An empty or single-point box gets `maxZoom`. On a flat north-up map, a box too wide for the padded map (data
    /// round most of the world) is shown by the world as wide as the map (less `seamReach`), centred on the box,
    /// rather than by a narrower world repeated: only the box's height can zoom the map out further. Tilted back by `pitch`, the box is fitted as the camera shows it
    /// (see ``tiltedFit(_:pitch:padding:maxZoom:)``): its corners, or `outline` where given, the world points around
    /// the data (their convex hull), which wastes none of the map on the box's empty corners.
    /// - Parameter seamReach: How much narrower than the map such a world-round map draws the world, in points: a
    ///   world exactly as wide as the map cuts a marker on its seam in two, at both side edges, while a world
    ///   narrower by the marker's width shows it whole on one side.
    /// - Throws: ``CameraError`` when the padding leaves no room or a value is out of range.
    public static func fitting(
        _ bounds: WorldBounds, width: Double, height: Double, padding: EdgePadding = EdgePadding(all: 0),
        bearing: Double = 0, pitch: Double = 0, outline: [ConvexHull.Point]? = nil,
        maxZoom: Double = 17, seamReach: Double = 0
    ) throws -> MapCamera {
        try check(pitch: pitch)
        let innerWidth = width - padding.left - padding.right, innerHeight = height - padding.top - padding.bottom
        // More than nothing: a 1×1 map with no padding has room for its point.
        guard innerWidth > 0, innerHeight > 0 else {
            throw CameraError("padding leaves no room on a \(Int(width))×\(Int(height)) map")
        }
        guard maxZoom.isFinite, zoomRange.contains(maxZoom) else {
            throw CameraError("maximum zoom \(maxZoom.messageText) is out of range; expected 0…22")
        }
        let data =
            bounds.isEmpty
            ? WorldBounds(center: Coordinate(longitude: 0, latitude: 0), latitudeDelta: 0, longitudeDelta: 0) : bounds
        let midX = (data.minX + data.maxX) / 2, midY = (data.minY + data.maxY) / 2
        guard bearing.isFinite else { throw CameraError("bearing \(bearing) is not a number of degrees") }
        // The box's extent on screen axes once turned by the bearing; turned as the camera will turn it (1e308° is
        // 1e308 mod 360 there, while its cosine as given is another angle's).
        let angle = normalized(bearing: bearing) * Double.pi / 180, cosine = abs(cos(angle)), sine = abs(sin(angle))
        let spanX = data.maxX - data.minX, spanY = data.maxY - data.minY
        let screenSpanX = spanX * cosine + spanY * sine, screenSpanY = spanX * sine + spanY * cosine
        var zoom = maxZoom
        if screenSpanX > 0 || screenSpanY > 0 {
            // A north-up map as wide as the world shows every longitude once, so a box too wide for the padded map
            // (data round most of the world) never makes the world narrower than the map: that would show the same
            // places, and their markers, twice. The box's middle is the map's, so the seam falls in the data's widest
            // gap. Only the box's height can take the map below one world, less the seam's reach: markers on the seam
            // then repeat, whole, in a strip as wide as they are.
            let oneWorld =
                bearing.truncatingRemainder(dividingBy: 360) == 0 && pitch == 0
                ? max(0, width - seamReach) / tileSize : 0
            let fit = min(
                screenSpanX > 0 ? max(innerWidth / (screenSpanX * tileSize), oneWorld) : .infinity,
                screenSpanY > 0 ? innerHeight / (screenSpanY * tileSize) : .infinity)
            zoom = min(maxZoom, max(zoomRange.lowerBound, log2(fit)))
        }
        // The padded area's centre sits off the map's centre; move the camera so the data lands in it.
        // A box across the antimeridian runs past x = 1; its middle is taken on the first copy of the world.
        var camera = try MapCamera(
            center: Coordinate(
                longitude: WebMercator.longitude(x: midX - midX.rounded(.down)),
                latitude: WebMercator.latitude(y: midY)),
            zoom: zoom, bearing: bearing, width: width, height: height)
        let shiftX = (padding.left - padding.right) / 2, shiftY = (padding.top - padding.bottom) / 2
        if shiftX != 0 || shiftY != 0 {
            let world = camera.worldPoint(atX: width / 2 - shiftX, y: height / 2 - shiftY)
            let latitude = max(
                -WebMercator.maximumLatitude, min(WebMercator.maximumLatitude, WebMercator.latitude(y: world.y)))
            let longitude = WebMercator.longitude(x: world.x - world.x.rounded(.down))
            camera.center = Coordinate(longitude: longitude, latitude: latitude)
        }
        if pitch == 0, normalized(bearing: bearing) == 0 { camera.keepInsideTheWorld(padding: padding) }
        guard pitch != 0 else { return camera }
        let corners = [
            ConvexHull.Point(x: data.minX, y: data.minY), ConvexHull.Point(x: data.maxX, y: data.minY),
            ConvexHull.Point(x: data.maxX, y: data.maxY), ConvexHull.Point(x: data.minX, y: data.maxY),
        ]
        return try camera.tiltedFit(
            outline.flatMap { $0.isEmpty ? nil : $0 } ?? corners, pitch: pitch, padding: padding, maxZoom: maxZoom)
    }

    /// Moves this north-up flat camera's view back towards the Mercator world where it shows more than the padding
    /// beyond its north or south edge: there is nothing there (MapLibre keeps a flat camera inside the world too), and
    /// a fit to points at the poles, which Web Mercator puts on those edges, would fill half the map with it. The
    /// padding stays, as it holds the markers standing on the edge; a view taller than the world and its padding is
    /// centred on the world.
    mutating func keepInsideTheWorld(padding: EdgePadding) {
        let size = worldSize, y = centerWorld.y
        let lowest = (height / 2 - padding.top) / size, highest = 1 - (height / 2 - padding.bottom) / size
        let kept = lowest > highest ? (lowest + highest) / 2 : min(max(y, lowest), highest)
        guard kept != y else { return }
        center = Coordinate(longitude: center.longitude, latitude: WebMercator.latitude(y: kept))
    }

    /// This flat camera's fit of the world points `outline`, tilted back by `pitch` and fitted again as the tilted
    /// camera shows them.
    ///
    /// A tilted map shows the far part of the data smaller and the near part larger, so the flat fit leaves room at the
    /// top and runs past the bottom. The outline's points, as the camera projects them, bound all within it (a
    /// projective view keeps straight lines straight); the camera is zoomed by how much larger their screen box can be,
    /// and moved so that the ground under that box's middle comes under the padded area's middle, until both settle. A
    /// fit that does not settle, or that would leave a corner outside, falls back to the flat camera zoomed out by the
    /// tilt's largest enlargement (the bottom edge's), which keeps all the flat map shows on the tilted one.
    func tiltedFit(_ outline: [ConvexHull.Point], pitch: Double, padding: EdgePadding, maxZoom: Double) throws
        -> MapCamera
    {
        let enlargement = Perspective(pitch: pitch, width: width, height: height).scale(flatY: height)
        let safe = try MapCamera(
            center: center, zoom: max(Self.zoomRange.lowerBound, zoom - log2(enlargement)), bearing: bearing,
            pitch: pitch, width: width, height: height)
        let area = (left: padding.left, top: padding.top, right: width - padding.right, bottom: height - padding.bottom)
        let outlineMiddle =
            (outline.reduce(Double.infinity) { min($0, $1.x) } + outline.reduce(-Double.infinity) { max($0, $1.x) }) / 2
        /// The outline's screen box; nil if a point of it is not in front of the camera.
        func screenBox(_ camera: MapCamera) -> (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
            let projection = camera.projection
            // The outline's copy of the world nearest the camera: data across the antimeridian runs past x = 1 while
            // a centre moved east of it comes back to x near 0, and the outline a world away would not be the data.
            let shift = (outlineMiddle - camera.centerWorld.x).rounded()
            var box = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
            for point in outline {
                let flat = projection.flatPoint(worldX: point.x - shift, worldY: point.y)
                guard flat.y < projection.perspective.nearFlatY else { return nil }
                let point = projection.perspective.point(flatX: flat.x, flatY: flat.y)
                box = (min(box.minX, point.x), min(box.minY, point.y), max(box.maxX, point.x), max(box.maxY, point.y))
            }
            return box
        }
        var camera = safe
        for _ in 0..<64 {
            guard let box = screenBox(camera) else { return safe }
            let spanX = box.maxX - box.minX, spanY = box.maxY - box.minY
            let grow = min(
                spanX > 0 ? (area.right - area.left) / spanX : .infinity,
                spanY > 0 ? (area.bottom - area.top) / spanY : .infinity)
            let zoom = min(
                maxZoom, max(Self.zoomRange.lowerBound, camera.zoom + (grow.isFinite ? log2(grow) : maxZoom)))
            // The ground under the box's middle goes where the ground under the area's middle is.
            let middle = camera.worldPoint(atX: (box.minX + box.maxX) / 2, y: (box.minY + box.maxY) / 2)
            let target = camera.worldPoint(atX: (area.left + area.right) / 2, y: (area.top + area.bottom) / 2)
            let centerX = camera.centerWorld.x + middle.x - target.x,
                centerY = camera.centerWorld.y + middle.y - target.y
            let moved = abs(middle.x - target.x) + abs(middle.y - target.y)
            guard abs(zoom - camera.zoom) > 1e-6 || moved * camera.worldSize > 1e-3 else { break }
            // Past the Mercator world's north or south edge the centre stays at it, and the check below decides.
            camera = try MapCamera(
                center: Coordinate(
                    longitude: WebMercator.longitude(x: centerX - centerX.rounded(.down)),
                    latitude: WebMercator.latitude(y: centerY)),
                zoom: zoom, bearing: bearing, pitch: pitch, width: width, height: height)
        }
        // Within a hundredth of a point of the padded area, or the safe fit.
        guard let box = screenBox(camera), box.minX >= area.left - 0.01, box.maxX <= area.right + 0.01,
            box.minY >= area.top - 0.01, box.maxY <= area.bottom + 0.01
        else { return safe }
        return camera
    }
}

extension CameraError: DeclutterError {
    /// A camera that cannot be made is out of range.
    public var kind: FailureKind { .outOfRange }

    /// The camera.
    public var field: String? { "camera" }
}
