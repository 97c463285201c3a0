import DeclutterSupport
import Foundation

/// The maths of a map's touch gestures, without any UI: a pan around the map's centre turns the bearing, a pinch
/// moves the zoom and the pitch together, each step giving a new ``MapCamera``.
///
/// The formulas are those of a camera driven by gesture callbacks that report the change since the last one:
///
/// - **Pan** (touch `location`, `translation` since the last step, reset to zero after each): with
///   `v1 = location − centre` and `v2 = v1 + translation`, the bearing changes by
///   `(atan2(v2.dx, v2.dy) − atan2(v1.dx, v1.dy)) · 180/π` degrees — note the (dx, dy) order — taken within
///   −180…180 so a step across the angle's seam is the short way round. On screen, whose y grows downward, a
///   clockwise drag gives a negative step: the bearing falls and the map turns clockwise with the finger (a quarter
///   turn clockwise from right of the centre to below it is −90°).
/// - **Pinch** (`scale` since the last step, reset to 1 after each): `deltaZoom = scale − 1` is added to the zoom
///   and `deltaPitch = (maxPitch − minPitch) · deltaZoom / (maxZoom − minZoom)` to the pitch, each then clamped to
///   its range, so one pinch moves zoom and pitch together across their ranges (a step of 1.2 is +0.2 zoom and, with
///   the camera's ranges 0…22 and 0…60, +0.2 × 60 / 22 degrees of pitch).
public struct CameraGesture: Sendable, Hashable {
    /// One gesture callback's change.
    public enum Step: Sendable, Hashable {
        /// A pan: the touch's location and its translation since the last step, in map points.
        case pan(locationX: Double, locationY: Double, translationX: Double, translationY: Double)
        /// A pinch: the scale since the last step (1: no change).
        case pinch(scale: Double)
    }

    /// The zooms a pinch moves within (default: the camera's, 0…22).
    public let zoomRange: ClosedRange<Double>
    /// The pitches a pinch moves within (default: the camera's, 0…60).
    public let pitchRange: ClosedRange<Double>

    /// Gestures moving within the given ranges.
    ///
    /// - Throws: ``CameraError`` when a range is not within the camera's or the zoom range is a single value (a pinch
    ///   divides by its width).
    public init(
        zoomRange: ClosedRange<Double> = MapCamera.zoomRange, pitchRange: ClosedRange<Double> = Perspective.pitchRange
    ) throws {
        guard zoomRange.lowerBound.isFinite, zoomRange.upperBound.isFinite, zoomRange.upperBound > zoomRange.lowerBound,
            MapCamera.zoomRange.contains(zoomRange.lowerBound), MapCamera.zoomRange.contains(zoomRange.upperBound)
        else {
            throw CameraError(
                "gesture zoom range \(zoomRange.lowerBound.messageText)…\(zoomRange.upperBound.messageText) is not valid; "
                    + "expected a range of some width within \(MapCamera.zoomRangeText)")
        }
        guard Perspective.pitchRange.contains(pitchRange.lowerBound),
            Perspective.pitchRange.contains(pitchRange.upperBound)
        else {
            throw CameraError(
                "gesture pitch range \(pitchRange.lowerBound.messageText)…\(pitchRange.upperBound.messageText) is not valid; "
                    + "expected a range within 0…60 degrees")
        }
        self.zoomRange = zoomRange
        self.pitchRange = pitchRange
    }

    /// The bearing change of a pan step around `center`, in degrees within −180…180; 0 when the touch or its end is
    /// on the centre (no angle to turn from).
    public static func rotation(
        location: (x: Double, y: Double), translation: (x: Double, y: Double),
        center: (x: Double, y: Double)
    ) -> Double {
        let v1 = (dx: location.x - center.x, dy: location.y - center.y)
        let v2 = (dx: v1.dx + translation.x, dy: v1.dy + translation.y)
        guard v1 != (0, 0), v2 != (0, 0) else { return 0 }
        let degrees = (atan2(v2.dx, v2.dy) - atan2(v1.dx, v1.dy)) * 180 / Double.pi
        // atan2 jumps by 360° across its seam; the step is the short way round.
        if degrees > 180 { return degrees - 360 }
        return degrees <= -180 ? degrees + 360 : degrees
    }

    /// The zoom and pitch changes of a pinch step, before clamping.
    public func pinch(scale: Double) -> (zoom: Double, pitch: Double) {
        let deltaZoom = scale - 1
        let deltaPitch =
            (pitchRange.upperBound - pitchRange.lowerBound) * deltaZoom / (zoomRange.upperBound - zoomRange.lowerBound)
        return (deltaZoom, deltaPitch)
    }

    /// The camera after one step: a pan turns it about the map's centre, a pinch zooms and tilts it, clamped to the
    /// ranges.
    ///
    /// - Throws: ``CameraError`` for a step whose values are not finite or a pinch scale that is not positive.
    public func applying(_ step: Step, to camera: MapCamera) throws -> MapCamera {
        var zoom = camera.zoom, bearing = camera.bearing, pitch = camera.pitch
        switch step {
        case let .pan(locationX, locationY, translationX, translationY):
            guard [locationX, locationY, translationX, translationY].allSatisfy(\.isFinite) else {
                throw CameraError("pan location and translation must be finite numbers of points")
            }
            bearing += Self.rotation(
                location: (locationX, locationY), translation: (translationX, translationY),
                center: (camera.width / 2, camera.height / 2))
        case let .pinch(scale):
            guard scale.isFinite, scale > 0 else {
                throw CameraError(
                    "pinch scale \(scale.messageText) is not valid; expected a number above 0 (1: no change)")
            }
            let delta = pinch(scale: scale)
            zoom = min(max(zoom + delta.zoom, zoomRange.lowerBound), zoomRange.upperBound)
            pitch = min(max(pitch + delta.pitch, pitchRange.lowerBound), pitchRange.upperBound)
        }
        return try MapCamera(
            center: camera.center, zoom: zoom, bearing: bearing, pitch: pitch, width: camera.width,
            height: camera.height)
    }

    /// The cameras a sequence of steps gives, one per step, starting from `camera` (which is not included).
    ///
    /// - Throws: ``CameraError`` for the first step that is not valid, naming its position (from 1).
    public func cameras(from camera: MapCamera, steps: [Step]) throws -> [MapCamera] {
        var current = camera, result: [MapCamera] = []
        result.reserveCapacity(steps.count)
        for (index, step) in steps.enumerated() {
            do {
                current = try applying(step, to: current)
            } catch let error as CameraError {
                throw CameraError("step \(index + 1): \(error.message)")
            }
            result.append(current)
        }
        return result
    }
}
