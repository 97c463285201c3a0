import DeclutterPlacement

/// A marker's image and where its point sits in it, as one style draws it and placement checks it: the one
/// description the annotator, the renderer and the sprite sheets share.
public struct MarkerGeometry: Sendable, Hashable {
    /// Whether the image is a cluster icon or a balloon marker.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A disc with category slices and the member count (two or more members).
        case cluster
        /// A balloon marker for a single point.
        case balloon
    }

    /// The kind of image.
    public var kind: Kind
    /// The image's width in points.
    public var width: Double
    /// The image's height in points.
    public var height: Double
    /// Where the point sits, in points from the image's top-left corner: a cluster icon's centre moved against
    /// the style's `centerOffset`, a balloon's tip.
    public var anchorX: Double
    /// See ``anchorX``.
    public var anchorY: Double
    /// How the view collides in placement: the style's cluster mode, or `rectangle` for a balloon.
    public var collisionMode: CollisionMode

    /// Creates a geometry; the collision mode defaults to `rectangle`.
    public init(
        kind: Kind, width: Double, height: Double, anchorX: Double, anchorY: Double,
        collisionMode: CollisionMode = .rectangle
    ) {
        self.kind = kind
        self.width = width
        self.height = height
        self.anchorX = anchorX
        self.anchorY = anchorY
        self.collisionMode = collisionMode
    }

    /// The view centre's offset from the point (x right, y down).
    public var centerOffset: (x: Double, y: Double) { (width / 2 - anchorX, height / 2 - anchorY) }
}

extension MarkerStyle {
    /// The geometry of the marker for `count` members: a balloon for one, else the cluster icon of the count's bucket.
    public func markerGeometry(count: Int) -> MarkerGeometry {
        if count == 1 { return balloonGeometry() }
        let diameter = cluster.bucket(for: count).diameter
        let offset = cluster.centerOffset.count == 2 ? cluster.centerOffset : [0, 0]
        return MarkerGeometry(
            kind: .cluster, width: diameter, height: diameter, anchorX: diameter / 2 - offset[0],
            anchorY: diameter / 2 - offset[1], collisionMode: cluster.collisionMode)
    }

    /// The geometry of the marker for members counted by the style's category index: for one member, its category's
    /// balloon (scaled by its ``MarkerCategory/balloonScale``), else as ``markerGeometry(count:)``.
    public func markerGeometry(categoryCounts counts: [Int]) -> MarkerGeometry {
        let total = counts.reduce(0, +)
        guard total == 1, let index = counts.firstIndex(of: 1), index < categories.count else {
            return markerGeometry(count: total)
        }
        return balloonGeometry(scale: categories[index].balloonScale)
    }

    /// A balloon's geometry at `scale` times the style's size: its tip on the point.
    public func balloonGeometry(scale: Double = 1) -> MarkerGeometry {
        let width = balloon.width * scale, height = balloon.height * scale
        return MarkerGeometry(
            kind: .balloon, width: width, height: height, anchorX: width / 2, anchorY: height, collisionMode: .rectangle
        )
    }

    /// The largest cluster icon's diameter: the unit clusters' compactness is measured in.
    public var largestClusterDiameter: Double { cluster.buckets.map(\.diameter).max() ?? 40 }

    /// The farthest a visible cluster's member may lie from the icon's centre: 2.5 largest icon diameters.
    public var maximumClusterSpread: Double { 2.5 * largestClusterDiameter }

    /// The clustering index's radius in map points: the style's `map.clusterRadius`, else half the smallest
    /// cluster icon, so that a group the index makes is never wider than the smallest icon.
    public var clusterRadius: Double { map.clusterRadius ?? (cluster.buckets.map(\.diameter).min() ?? 40) / 2 }
}
