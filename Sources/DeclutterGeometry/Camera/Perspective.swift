import Foundation

/// The tilt of a pitched map: how a point of the flat map (the same centre, zoom and bearing seen from straight
/// above) appears when the camera leans back by `pitch`, as MapLibre projects it.
///
/// The camera looks at the map's centre from `cameraDistance` points away along a line `pitch` degrees from the
/// vertical, with a vertical field of view of 36.87° (MapLibre's: the distance is 1.5 map heights), so the centre
/// keeps the zoom's scale, rows below it come nearer and grow, rows above it recede and shrink. The ground is the
/// Web Mercator plane, so the tilt is a projective map of the flat map: straight lines stay straight, and each row
/// of the map is the flat map's row scaled about the centre line. With `a`, `b` a flat point's offset from the
/// centre, `c = cos(pitch)`, `s = sin(pitch)` and `d` the camera distance:
///
///     depth = d − b·s        x = W/2 + a·d / depth        y = H/2 + b·c·d / depth
///
/// Up to 60° (Mapbox's and MapLibre's default limit) the horizon lies above the map's top edge, so every point of
/// the map shows ground.
public struct Perspective: Sendable, Hashable {
    /// MapLibre's vertical field of view, in radians: the camera stands 1.5 map heights from the centre.
    public static let fieldOfView = 0.6435011087932844
    /// The pitches a camera accepts, in degrees.
    public static let pitchRange = 0.0...60.0

    /// Degrees from looking straight down.
    public let pitch: Double
    /// The map's width in points.
    public let width: Double
    /// The map's height in points.
    public let height: Double
    /// Points from the camera to the map's centre.
    public let cameraDistance: Double
    private let cosine: Double, sine: Double

    /// The tilt of a map of this size; `pitch` is in degrees, 0 for a flat map.
    public init(pitch: Double, width: Double, height: Double) {
        self.pitch = pitch
        self.width = width
        self.height = height
        cameraDistance = 0.5 / tan(Self.fieldOfView / 2) * height
        let angle = pitch * Double.pi / 180
        cosine = cos(angle)
        sine = pitch == 0 ? 0 : sin(angle)
    }

    /// Whether the map is seen from straight above, every point where the flat map has it.
    public var isFlat: Bool { sine == 0 }

    /// How far in front of the camera a flat point lies, along its line of sight, in points; the point is
    /// behind the camera when this is not positive.
    @inline(__always)
    public func depth(flatY y: Double) -> Double { cameraDistance - (y - height / 2) * sine }

    /// Where a point of the flat map appears on the pitched map; only for points in front of the camera (see
    /// ``depth(flatY:)`` and ``nearFlatY``).
    @inline(__always)
    public func point(flatX x: Double, flatY y: Double) -> (x: Double, y: Double) {
        guard sine != 0 else { return (x, y) }
        let a = x - width / 2, b = y - height / 2, scale = cameraDistance / (cameraDistance - b * sine)
        return (width / 2 + a * scale, height / 2 + b * cosine * scale)
    }

    /// The point of the flat map seen at a point of the pitched map, the inverse of ``point(flatX:flatY:)``; nil at
    /// or above the horizon, where no ground shows.
    public func flatPoint(x: Double, y: Double) -> (x: Double, y: Double)? {
        guard sine != 0 else { return (x, y) }
        let a = x - width / 2, b = y - height / 2, denominator = cameraDistance * cosine + b * sine
        guard denominator > 0 else { return nil }
        let flatB = b * cameraDistance / denominator
        return (width / 2 + a * (cameraDistance - flatB * sine) / cameraDistance, height / 2 + flatB)
    }

    /// How large the ground appears on row `y` of the pitched map against the map's centre: 1 on the centre row,
    /// more below, less above, falling linearly to 0 at the horizon.
    public func scale(atY y: Double) -> Double {
        guard sine != 0 else { return 1 }
        return 1 + (y - height / 2) * sine / (cameraDistance * cosine)
    }

    /// The row of the pitched map where the ground appears `scale` times as large as at the centre (the inverse of
    /// ``scale(atY:)``); the centre row for a flat map.
    public func row(atScale scale: Double) -> Double {
        guard sine != 0 else { return height / 2 }
        return height / 2 + (scale - 1) * cameraDistance * cosine / sine
    }

    /// How large the ground appears at a point of the flat map against the map's centre.
    public func scale(flatY y: Double) -> Double {
        guard sine != 0 else { return 1 }
        return cameraDistance / depth(flatY: y)
    }

    /// The row of the pitched map where the ground meets the sky (−∞ for a flat map); above the top edge up to 60°.
    public var horizonY: Double {
        guard sine != 0 else { return -.infinity }
        return height / 2 - cameraDistance * cosine / sine
    }

    /// The flat row beyond which points are too near the camera (or behind it) to project; lines are cut there.
    ///
    /// As MapLibre's near plane, at 1/50 of the map's height from the camera; the map's own bottom row lies far
    /// before it (at 60°, 1.6 times the centre's scale against 75 times).
    public var nearFlatY: Double {
        guard sine != 0 else { return .infinity }
        return height / 2 + (cameraDistance - height / 50) / sine
    }
}
