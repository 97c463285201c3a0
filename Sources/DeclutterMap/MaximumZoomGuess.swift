import DeclutterClustering
import DeclutterGeometry
import DeclutterStyle
import Foundation

/// `declutter tiles --max-zoom auto`: the lowest zoom at which the data's points stand apart by a marker, as
/// tippecanoe's `-zg` guesses a zoom from the features' spacing.
///
/// Each point's distance to its nearest other (exact duplicates left out, as no zoom parts them) is measured in world
/// units; the zoom is the lowest at which the median of those distances spans a marker's width on 512-pixel tiles,
/// so that at that zoom at least half the points stand clear of their nearest neighbour, and clusters remain only
/// where the data is denser than its middle. Bounded by the zooms tiles can be placed at.
public struct MaximumZoomGuess: Sendable, Hashable {
    /// The zoom guessed.
    public var zoom: Int
    /// The median nearest-neighbour distance, in pixels at ``zoom`` on 512-pixel tiles.
    public var medianPixels: Double
    /// The marker width it must span.
    public var markerWidth: Double

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
        guard !distances.isEmpty else {
            zoom = zooms.lowerBound
            medianPixels = 0
            return
        }
        let median = distances[distances.count / 2]
        let exact = log2(markerWidth / (median * 512)).rounded(.up)
        zoom = Int(min(Double(zooms.upperBound), max(Double(zooms.lowerBound), exact)))
        medianPixels = median * 512 * pow(2, Double(zoom))
    }
}
