import DeclutterSupport
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
    public init(
        id: String, x: Double, y: Double, width: Double, height: Double, centerOffset: [Double] = [0, 0],
        collisionMode: CollisionMode = .rectangle, displayPriority: DisplayPriority = .required,
        clusteringIdentifier: String? = nil
    ) {
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
            throw DecodingError.dataCorruptedError(
                forKey: .id, in: container, debugDescription: "expected a string or number id")
        }
        let reach = PlacementScene.maximumCoordinate, limit = JSONValue.format(reach)
        func position(_ key: CodingKeys) throws -> Double {
            try container.decode(
                Double.self, forKey: key, where: { abs($0) <= reach }, expected: "a number within ±\(limit)")
        }
        func size(_ key: CodingKeys) throws -> Double {
            try container.decode(
                Double.self, forKey: key, where: { (0...reach).contains($0) },
                expected: "a \(key.stringValue) in 0…\(limit)")
        }
        self.init(
            id: id, x: try position(.x), y: try position(.y), width: try size(.width), height: try size(.height),
            centerOffset: try container.decode(
                [Double].self, forKey: .centerOffset, default: [0, 0],
                where: { $0.count == 2 && $0.allSatisfy { abs($0) <= reach } },
                expected: "[dx, dy], each within ±\(limit)"),
            collisionMode: try container.decodeIfPresent(CollisionMode.self, forKey: .collisionMode) ?? .rectangle,
            displayPriority: try container.decodeIfPresent(DisplayPriority.self, forKey: .displayPriority) ?? .required,
            clusteringIdentifier: try container.decodeIfPresent(String.self, forKey: .clusteringIdentifier))
    }
}
