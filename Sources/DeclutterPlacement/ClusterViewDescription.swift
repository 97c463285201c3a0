import DeclutterSupport
import Foundation

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
    public init(
        width: Double = 40, height: Double = 40, collisionMode: CollisionMode = .circle,
        centerOffset: [Double] = [0, 0],
        maximumSpread: Double? = nil
    ) {
        self.width = width
        self.height = height
        self.collisionMode = collisionMode
        self.centerOffset = centerOffset
        self.maximumSpread = maximumSpread ?? 2.5 * max(width, height)
    }
}

extension ClusterViewDescription: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case width, height, collisionMode, centerOffset, maximumSpread }

    /// Decodes the cluster view, every field optional.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = ClusterViewDescription()
        let reach = PlacementScene.maximumCoordinate, limit = JSONValue.format(reach)
        let width = try container.decode(
            Double.self, forKey: .width, default: defaults.width, where: { $0 > 0 && $0 <= reach },
            expected: "a width > 0 and at most \(limit)")
        let height = try container.decode(
            Double.self, forKey: .height, default: defaults.height, where: { $0 > 0 && $0 <= reach },
            expected: "a height > 0 and at most \(limit)")
        self.init(
            width: width, height: height,
            collisionMode: try container.decodeIfPresent(CollisionMode.self, forKey: .collisionMode)
                ?? defaults.collisionMode,
            centerOffset: try container.decode(
                [Double].self, forKey: .centerOffset, default: [0, 0],
                where: { $0.count == 2 && $0.allSatisfy { abs($0) <= reach } },
                expected: "[dx, dy], each within ±\(limit)"),
            maximumSpread: try container.decode(
                Double.self, forKey: .maximumSpread, default: 2.5 * max(width, height),
                where: { $0 > 0 }, expected: "a distance > 0 in points"))
    }
}
