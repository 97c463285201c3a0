import DeclutterClustering
import DeclutterGeometry
import DeclutterStyle
import Foundation

/// `declutter tiles --max-zoom auto`: the lowest zoom at which the data's points stand apart by a marker, as
/// tippecanoe's `-zg` guesses a zoom from the features' spacing.
///
/// Each point's distance to its nearest other (exact duplicates left out, as no zoom parts them) is measured in world
/// units; the zoom is the lowest at which nine in ten of those distances span a marker's width on 512-pixel tiles, so
/// that at that zoom nine points in ten stand clear of their nearest neighbour, and clusters remain only where the
/// data is densest (a click on a cluster zooms to where it parts, and beyond the last zoom none parts). Half, as the
/// guess first took, left a fifth of the 144,563 cities in clusters at every zoom; nine in ten leaves 3.5 % of
/// Germany's 10,508 (measured on the tiles: 23 % with half). Never below ``precisionZoom``: beyond the last zoom MapLibre overzooms
/// its tiles, whose positions are kept to a 4096th of a tile, so sparse data guessed at zoom 0 stood points up to
/// 5 km from their place once zoomed in. Bounded by the zooms tiles can be placed at.
public struct MaximumZoomGuess: Sendable, Hashable {
    /// The zoom guessed.
    public var zoom: Int
    /// The nearest-neighbour distance nine points in ten reach or pass, in pixels at ``zoom`` on 512-pixel tiles; nil
    /// when no two points stand apart (one point, or all at one place).
    public var spacingPixels: Double?
    /// The marker width it must span.
    public var markerWidth: Double
    /// Why the zoom is what it is, for the message: the points' spacing, the precision floor or the highest zoom.
    public var reason: Reason

    /// What decided the zoom.
    public enum Reason: Sendable, Hashable {
        /// The lowest zoom at which nine in ten distances span a marker.
        case spacing
        /// ``precisionZoom``, above the zoom the spacing asks for.
        case precision
        /// The highest zoom tiles are placed at, below the zoom the spacing asks for.
        case highest
    }

    /// The lowest zoom guessed: a tile unit there is 9.6 m at the equator, so a point beyond it stands within 4.8 m of
    /// its place, a pixel at zoom 14 (where tippecanoe stops by default).
    public static let precisionZoom = 10

    /// Guesses a zoom for `points` drawn in `style`, within `zooms`.
    public init(points: [ClusterPoint], style: MarkerStyle, within zooms: ClosedRange<Int>) {
        var xs: [Double] = [], ys: [Double] = []
        xs.reserveCapacity(points.count)
        ys.reserveCapacity(points.count)
        for point in points {
            guard let location = point.location else { continue }
            xs.append(WebMercator.x(longitude: location.longitude))
            ys.append(WebMercator.y(latitude: location.latitude))
        }
        markerWidth = style.balloon.width
        let distances = ClusterIndex.nearestDistances(xs: xs, ys: ys).distances.filter { $0 > 0 && $0.isFinite }
            .sorted()
        let floor = min(zooms.upperBound, max(zooms.lowerBound, Self.precisionZoom))
        guard !distances.isEmpty else {
            (zoom, spacingPixels, reason) = (floor, nil, .precision)
            return
        }
        // Sorted ascending: a tenth of the distances lie below this one.
        let spacing = distances[distances.count / 10]
        let exact = log2(markerWidth / (spacing * 512)).rounded(.up)
        if exact > Double(zooms.upperBound) {
            (zoom, reason) = (zooms.upperBound, .highest)
        } else if exact < Double(floor) {
            (zoom, reason) = (floor, .precision)
        } else {
            (zoom, reason) = (Int(exact), .spacing)
        }
        spacingPixels = spacing * 512 * pow(2, Double(zoom))
    }

    /// The message `tiles` prints: the zoom and why.
    public var message: String {
        let spacing = spacingPixels.map {
            "nine points in ten stand \(Int($0.rounded())) px or more from their nearest neighbour there"
        }
        switch reason {
        case .spacing:
            return "--max-zoom auto: \(zoom) (\(spacing ?? ""), a \(Int(markerWidth)) px marker's width or more)"
        case .precision:
            return
                "--max-zoom auto: \(zoom) (\(spacing.map { "\($0), a \(Int(markerWidth)) px marker's width or more already; " } ?? "no two points stand apart; ")"
                + "no lower, so that points stand within 5 m of their place where MapLibre zooms in beyond it)"
        case .highest:
            return
                "--max-zoom auto: \(zoom), the highest (\(spacing ?? ""), less than a \(Int(markerWidth)) px marker's width: "
                + "the points are denser than any zoom parts)"
        }
    }
}
