import DeclutterClustering
import DeclutterGeometry
import DeclutterPlacement
import DeclutterStyle

/// One view on a static map: a cluster icon or a balloon marker, with the points it stands for.
public struct MapAnnotation: Sendable, Hashable {
    /// What the view is.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A cluster icon for two or more points.
        case cluster
        /// A balloon marker for one point.
        case marker
    }

    /// Cluster icon or balloon marker.
    public var kind: Kind
    /// The points it stands for, as ascending indices into the input; on a map annotated for drawing alone (without
    /// points off the map, see ``MapAnnotator/annotate(_:reserved:pointsOffMap:)``), a cluster's lowest alone.
    public var members: [Int]
    /// How many points it stands for.
    public var count: Int
    /// Members per category, by the style's category index.
    public var categoryCounts: [Int]
    /// The annotation's coordinate: a marker's point, a cluster's count-weighted centroid in Web Mercator.
    public var coordinate: Coordinate
    /// The view's frame in points from the map's top-left corner: of the copy nearest the map's centre where the
    /// world repeats.
    public var frame: (x: Double, y: Double, width: Double, height: Double)
    /// The top-left corners of the view's other copies on the map, where the map is wider than the world or
    /// shows the antimeridian twice; each has the size of ``frame``.
    public var copies: [(x: Double, y: Double)]
    /// Whether placement showed the view.
    public var visible: Bool
    /// Its display priority; views are drawn lowest first.
    public var priority: DisplayPriority

    /// Creates an annotation; its count is its members' unless given.
    public init(
        kind: Kind, members: [Int], count: Int? = nil, categoryCounts: [Int], coordinate: Coordinate,
        frame: (x: Double, y: Double, width: Double, height: Double), copies: [(x: Double, y: Double)] = [],
        visible: Bool, priority: DisplayPriority
    ) {
        self.kind = kind
        self.members = members
        self.count = count ?? members.count
        self.categoryCounts = categoryCounts
        self.coordinate = coordinate
        self.frame = frame
        self.copies = copies
        self.visible = visible
        self.priority = priority
    }

    /// The members per category by name, in the style's order, leaving out categories with none.
    public func counts(in style: MarkerStyle) -> CategoryCounts {
        CategoryCounts(zip(style.categories, categoryCounts).filter { $0.1 > 0 }.map { ($0.0.name, $0.1) })
    }

    public static func == (lhs: MapAnnotation, rhs: MapAnnotation) -> Bool {
        lhs.kind == rhs.kind && lhs.members == rhs.members && lhs.count == rhs.count
            && lhs.categoryCounts == rhs.categoryCounts
            && lhs.coordinate == rhs.coordinate
            && lhs.frame == rhs.frame && lhs.copies.elementsEqual(rhs.copies, by: ==) && lhs.visible == rhs.visible
            && lhs.priority == rhs.priority
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(members)
        hasher.combine(frame.x)
        hasher.combine(frame.y)
    }
}
