import Foundation

/// Web Mercator in world units: x and y in 0…1, x east from the antimeridian, y south from the top of the map.
public enum WebMercator {
    /// The world x of a longitude.
    @inline(__always)
    public static func x(longitude: Double) -> Double { longitude / 360 + 0.5 }

    /// The world y of a latitude, clamped to 0…1 (about ±85.0511°).
    @inline(__always)
    public static func y(latitude: Double) -> Double {
        let sine = sin(latitude * Double.pi / 180)
        let y = 0.5 - 0.25 * log((1 + sine) / (1 - sine)) / Double.pi
        return y < 0 ? 0 : y > 1 ? 1 : y
    }

    /// The northernmost latitude on the map (about 85.0511°): the latitude of world y 0, as computed here, so a
    /// latitude this enum produces never falls outside ±``maximumLatitude``.
    public static let maximumLatitude = latitude(y: 0)

    /// The longitude of a world x.
    @inline(__always)
    public static func longitude(x: Double) -> Double { (x - 0.5) * 360 }

    /// The latitude of a world y.
    @inline(__always)
    public static func latitude(y: Double) -> Double {
        let angle = (180 - y * 360) * Double.pi / 180
        return 360 * atan(exp(angle)) / Double.pi - 90
    }
}

extension WebMercator {
    /// A coordinate's position in global pixels at a zoom: `tileSize·2^zoom` pixels across the world, as
    /// mercantile and tile servers count them.
    public static func pixel(of coordinate: Coordinate, zoom: Double, tileSize: Double = 256) -> (x: Double, y: Double)
    {
        let size = tileSize * pow(2, zoom)
        return (x(longitude: coordinate.longitude) * size, y(latitude: coordinate.latitude) * size)
    }
}
