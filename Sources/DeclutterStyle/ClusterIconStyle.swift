import DeclutterPlacement
import DeclutterSupport

/// How cluster icons look: a disc of category slices, an inner disc, and the count.
public struct ClusterIconStyle: Sendable, Hashable {
    /// Icon geometry by member count, ascending by `minimumCount`; the last bucket whose minimum
    /// a count reaches applies. At least one bucket.
    public var buckets: [ClusterSizeBucket]
    /// The colour of the inner disc. Default white.
    public var innerColor: RGBAColor
    /// The colour of the count. Default black.
    public var textColor: RGBAColor
    /// Whether counts are abbreviated like supercluster (`1.2k`, `12k`, `1.2M`). Default true.
    public var abbreviate: Bool
    /// How cluster views collide. Default `circle` (TANDm's cluster view).
    public var collisionMode: CollisionMode
    /// The view's offset from the cluster's point, in points (x right, y down). Default (0, 0).
    public var centerOffset: [Double]

    /// Creates a cluster style; see the properties for the defaults.
    public init(
        buckets: [ClusterSizeBucket], innerColor: RGBAColor = .white, textColor: RGBAColor = .black,
        abbreviate: Bool = true, collisionMode: CollisionMode = .circle, centerOffset: [Double] = [0, 0]
    ) {
        self.buckets = buckets
        self.innerColor = innerColor
        self.textColor = textColor
        self.abbreviate = abbreviate
        self.collisionMode = collisionMode
        self.centerOffset = centerOffset
    }

    /// The bucket for a member count: the last one whose `minimumCount` it reaches (the first if none does).
    public func bucket(for count: Int) -> ClusterSizeBucket {
        buckets.last(where: { count >= $0.minimumCount }) ?? buckets[0]
    }

    /// The text drawn for a member count.
    public func label(for count: Int) -> String {
        abbreviate ? CountFormatter.abbreviated(count) : String(count)
    }
}

extension ClusterIconStyle: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case buckets, innerColor, textColor, abbreviate, collisionMode, centerOffset
    }

    /// Decodes and validates: buckets present and ascending, an offset of two numbers.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let buckets = try container.decode(
            [ClusterSizeBucket].self, forKey: .buckets,
            where: { buckets in
                !buckets.isEmpty && zip(buckets, buckets.dropFirst()).allSatisfy { $0.minimumCount < $1.minimumCount }
            }, expected: "a non-empty list of buckets with strictly ascending minimumCount")
        self.init(
            buckets: buckets,
            innerColor: try container.decodeIfPresent(RGBAColor.self, forKey: .innerColor) ?? .white,
            textColor: try container.decodeIfPresent(RGBAColor.self, forKey: .textColor) ?? .black,
            abbreviate: try container.decodeIfPresent(Bool.self, forKey: .abbreviate) ?? true,
            collisionMode: try container.decodeIfPresent(CollisionMode.self, forKey: .collisionMode) ?? .circle,
            centerOffset: try container.decode(
                [Double].self, forKey: .centerOffset, default: [0, 0],
                where: { $0.count == 2 && $0.allSatisfy(\.isFinite) },
                expected: "[dx, dy], two numbers in points"))
    }
}
