import DeclutterSupport

/// Google's encoded polyline format, as routing APIs return routes (OSRM, Valhalla, Google Directions).
public enum Polyline {
    /// Decodes an encoded polyline with 5 (Google, OSRM) or 6 (Valhalla) decimal places.
    ///
    /// - Throws: ``PolylineError`` naming the character position of a byte outside the alphabet or a value cut short.
    public static func decode(_ encoded: String, precision: Int = 5) throws -> [Coordinate] {
        guard (1...7).contains(precision) else {
            throw PolylineError("precision \(precision) is out of range; expected 5 or 6 (1…7 accepted)")
        }
        var factor = 1.0
        for _ in 0..<precision { factor *= 10 }
        var coordinates: [Coordinate] = []
        var latitude = 0, longitude = 0, position = 0
        let bytes = Array(encoded.utf8)
        func next() throws -> Int {
            var result = 0, shift = 0
            while true {
                guard position < bytes.count else {
                    throw PolylineError("the polyline ends inside a value at character \(position + 1)")
                }
                let byte = Int(bytes[position])
                guard (63...126).contains(byte) else {
                    throw PolylineError(
                        "character \(position + 1) is not part of an encoded polyline (expected ASCII 63…126)")
                }
                position += 1
                let chunk = byte - 63
                guard shift < 60 else { throw PolylineError("a value at character \(position) is too long") }
                result |= (chunk & 0x1F) << shift
                shift += 5
                if chunk < 0x20 { break }
            }
            return result & 1 != 0 ? ~(result >> 1) : result >> 1
        }
        while position < bytes.count {
            latitude += try next()
            longitude += try next()
            let coordinate = Coordinate(longitude: Double(longitude) / factor, latitude: Double(latitude) / factor)
            guard (-90...90).contains(coordinate.latitude), (-180...180).contains(coordinate.longitude) else {
                throw PolylineError(
                    "point \(coordinates.count + 1) (\(coordinate.latitude), \(coordinate.longitude)) is outside the world; is the precision right?"
                )
            }
            coordinates.append(coordinate)
        }
        return coordinates
    }

    /// Encodes coordinates with `precision` decimal places.
    public static func encode(_ coordinates: [Coordinate], precision: Int = 5) -> String {
        var factor = 1.0
        for _ in 0..<max(1, min(7, precision)) { factor *= 10 }
        var output: [UInt8] = [], previousLatitude = 0, previousLongitude = 0
        func append(_ value: Int) {
            var rest = value < 0 ? ~(value << 1) : value << 1
            while rest >= 0x20 {
                output.append(UInt8((0x20 | (rest & 0x1F)) + 63))
                rest >>= 5
            }
            output.append(UInt8(rest + 63))
        }
        for coordinate in coordinates {
            let latitude = Int((coordinate.latitude * factor).rounded()),
                longitude = Int((coordinate.longitude * factor).rounded())
            append(latitude - previousLatitude)
            append(longitude - previousLongitude)
            previousLatitude = latitude
            previousLongitude = longitude
        }
        return String(decoding: output, as: UTF8.self)
    }
}

/// Why an encoded polyline could not be decoded.
public struct PolylineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong and where.
    public var message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { "polyline: \(message)" }
}

extension Polyline {
    /// The points of a line kept by Douglas–Peucker simplification: every dropped point lies within `tolerance`
    /// of the simplified line. Points are screen positions; the first and last are always kept.
    public static func simplify(_ points: [(x: Double, y: Double)], tolerance: Double) -> [(x: Double, y: Double)] {
        guard points.count > 2, tolerance > 0 else { return points }
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        var stack = [(0, points.count - 1)]
        let limit = tolerance * tolerance
        while let (first, last) = stack.popLast() {
            guard last > first + 1 else { continue }
            let ax = points[first].x, ay = points[first].y
            let dx = points[last].x - ax, dy = points[last].y - ay
            let lengthSquared = dx * dx + dy * dy
            var farthest = first, farthestDistance = -1.0
            for index in (first + 1)..<last {
                let px = points[index].x - ax, py = points[index].y - ay
                // Distance to the segment (not the infinite line), so back-tracking points are kept.
                var t = lengthSquared > 0 ? (px * dx + py * dy) / lengthSquared : 0
                t = max(0, min(1, t))
                let ex = px - t * dx, ey = py - t * dy
                let distance = ex * ex + ey * ey
                if distance > farthestDistance {
                    farthestDistance = distance
                    farthest = index
                }
            }
            if farthestDistance > limit {
                keep[farthest] = true
                stack.append((first, farthest))
                stack.append((farthest, last))
            }
        }
        return points.indices.filter { keep[$0] }.map { points[$0] }
    }
}

extension PolylineError: DeclutterError {
    /// An encoded polyline that does not decode is bad input.
    public var kind: FailureKind { .badInput }

    /// The polyline.
    public var field: String? { "polyline" }
}
