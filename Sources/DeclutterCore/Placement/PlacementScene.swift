import Foundation

/// A marker view in screen space, as MapKit lays annotation views out.
public struct PlacementAnnotation: Sendable, Hashable {
    /// A stable identity.
    public var id: String
    /// The annotation's point, in points from the viewport's top-left corner.
    public var x: Double
    /// See ``x``.
    public var y: Double
    /// The view's width.
    public var width: Double
    /// The view's height.
    public var height: Double
    /// The view centre's offset from the point (x right, y down). Default (0, 0).
    public var centerOffset: [Double]
    /// How the view collides. Default `rectangle` (MapKit's default).
    public var collisionMode: CollisionMode
    /// Higher wins a collision. Default `required` (MapKit's default).
    public var displayPriority: DisplayPriority
    /// Colliding views with the same identifier merge into a cluster; nil never clusters.
    public var clusteringIdentifier: String?

    /// Creates an annotation; see the properties for the defaults.
    public init(id: String, x: Double, y: Double, width: Double, height: Double, centerOffset: [Double] = [0, 0],
                collisionMode: CollisionMode = .rectangle, displayPriority: DisplayPriority = .required, clusteringIdentifier: String? = nil) {
        self.id = id
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.centerOffset = centerOffset
        self.collisionMode = collisionMode
        self.displayPriority = displayPriority
        self.clusteringIdentifier = clusteringIdentifier
    }
}

/// How cluster annotations' views look to placement.
public struct ClusterViewDescription: Sendable, Hashable {
    /// Width. Default 40.
    public var width: Double
    /// Height. Default 40.
    public var height: Double
    /// Collision mode. Default `circle` (TANDm's cluster view).
    public var collisionMode: CollisionMode
    /// View centre offset from the cluster's point. Default (0, 0).
    public var centerOffset: [Double]
    /// The farthest a member's point may lie from the cluster view's centre; views that would merge into a wider
    /// cluster stay apart. Default 2.5 times the larger side.
    public var maximumSpread: Double

    /// Creates a description; see the properties for the defaults.
    public init(width: Double = 40, height: Double = 40, collisionMode: CollisionMode = .circle, centerOffset: [Double] = [0, 0],
                maximumSpread: Double? = nil) {
        self.width = width
        self.height = height
        self.collisionMode = collisionMode
        self.centerOffset = centerOffset
        self.maximumSpread = maximumSpread ?? 2.5 * max(width, height)
    }
}

/// Everything placement needs: the viewport, the cluster view and the annotations.
public struct PlacementScene: Sendable, Hashable {
    /// Viewport width in points.
    public var width: Double
    /// Viewport height in points.
    public var height: Double
    /// How clusters look.
    public var clusterView: ClusterViewDescription
    /// The annotations, in any order.
    public var annotations: [PlacementAnnotation]

    /// Creates a scene.
    public init(width: Double, height: Double, clusterView: ClusterViewDescription = ClusterViewDescription(),
                annotations: [PlacementAnnotation]) {
        self.width = width
        self.height = height
        self.clusterView = clusterView
        self.annotations = annotations
    }
}

extension PlacementScene: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case viewport, clusterView, annotations }
    enum ViewportKeys: String, CodingKey, CaseIterable { case width, height }

    /// Decodes `{"viewport": {"width", "height"}, "clusterView": {...}, "annotations": [...]}`, rejecting unknown fields.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let viewport = try container.nestedContainer(keyedBy: ViewportKeys.self, forKey: .viewport)
        let width = try viewport.decode(Double.self, forKey: .width, where: { $0 > 0 && $0 <= 1e6 }, expected: "a width in points, > 0")
        let height = try viewport.decode(Double.self, forKey: .height, where: { $0 > 0 && $0 <= 1e6 }, expected: "a height in points, > 0")
        self.init(width: width, height: height,
                  clusterView: try container.decodeIfPresent(ClusterViewDescription.self, forKey: .clusterView) ?? ClusterViewDescription(),
                  annotations: try container.decode([PlacementAnnotation].self, forKey: .annotations))
        let ids = annotations.map(\.id)
        if Set(ids).count != ids.count, let repeated = ids.enumerated().first(where: { ids.firstIndex(of: $0.element) != $0.offset }) {
            throw DecodingError.dataCorrupted(.init(codingPath: [CodingKeys.annotations, AnyCodingKey(intValue: repeated.offset),
                                                                AnyCodingKey(stringValue: "id")],
                                                    debugDescription: "expected a unique id; \"\(repeated.element)\" is used before"))
        }
    }
}

extension ClusterViewDescription: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case width, height, collisionMode, centerOffset, maximumSpread }

    /// Decodes the cluster view, every field optional.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = ClusterViewDescription()
        let width = try container.decode(Double.self, forKey: .width, default: defaults.width, where: { $0 > 0 && $0.isFinite }, expected: "a width > 0")
        let height = try container.decode(Double.self, forKey: .height, default: defaults.height, where: { $0 > 0 && $0.isFinite }, expected: "a height > 0")
        self.init(width: width, height: height,
                  collisionMode: try container.decodeIfPresent(CollisionMode.self, forKey: .collisionMode) ?? defaults.collisionMode,
                  centerOffset: try container.decode([Double].self, forKey: .centerOffset, default: [0, 0],
                                                     where: { $0.count == 2 && $0.allSatisfy(\.isFinite) }, expected: "[dx, dy]"),
                  maximumSpread: try container.decode(Double.self, forKey: .maximumSpread, default: 2.5 * max(width, height),
                                                      where: { $0 > 0 }, expected: "a distance > 0 in points"))
    }
}

extension PlacementAnnotation: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, x, y, width, height, centerOffset, collisionMode, displayPriority, clusteringIdentifier
    }

    /// Decodes an annotation; `id` may be a string or a number.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let id: String
        if let text = try? container.decode(String.self, forKey: .id) {
            id = text
        } else if let number = try? container.decode(Double.self, forKey: .id) {
            id = JSONValue.format(number)
        } else {
            throw DecodingError.dataCorruptedError(forKey: .id, in: container, debugDescription: "expected a string or number id")
        }
        func finite(_ key: CodingKeys) throws -> Double {
            try container.decode(Double.self, forKey: key, where: \.isFinite, expected: "a finite number")
        }
        self.init(id: id, x: try finite(.x), y: try finite(.y),
                  width: try container.decode(Double.self, forKey: .width, where: { $0 >= 0 && $0.isFinite }, expected: "a width ≥ 0"),
                  height: try container.decode(Double.self, forKey: .height, where: { $0 >= 0 && $0.isFinite }, expected: "a height ≥ 0"),
                  centerOffset: try container.decode([Double].self, forKey: .centerOffset, default: [0, 0],
                                                     where: { $0.count == 2 && $0.allSatisfy(\.isFinite) }, expected: "[dx, dy]"),
                  collisionMode: try container.decodeIfPresent(CollisionMode.self, forKey: .collisionMode) ?? .rectangle,
                  displayPriority: try container.decodeIfPresent(DisplayPriority.self, forKey: .displayPriority) ?? .required,
                  clusteringIdentifier: try container.decodeIfPresent(String.self, forKey: .clusteringIdentifier))
    }
}
