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
    public init(buckets: [ClusterSizeBucket], innerColor: RGBAColor = .white, textColor: RGBAColor = .black,
                abbreviate: Bool = true, collisionMode: CollisionMode = .circle, centerOffset: [Double] = [0, 0]) {
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
        let buckets = try container.decode([ClusterSizeBucket].self, forKey: .buckets, where: { buckets in
            !buckets.isEmpty && zip(buckets, buckets.dropFirst()).allSatisfy { $0.minimumCount < $1.minimumCount }
        }, expected: "a non-empty list of buckets with strictly ascending minimumCount")
        self.init(
            buckets: buckets,
            innerColor: try container.decodeIfPresent(RGBAColor.self, forKey: .innerColor) ?? .white,
            textColor: try container.decodeIfPresent(RGBAColor.self, forKey: .textColor) ?? .black,
            abbreviate: try container.decodeIfPresent(Bool.self, forKey: .abbreviate) ?? true,
            collisionMode: try container.decodeIfPresent(CollisionMode.self, forKey: .collisionMode) ?? .circle,
            centerOffset: try container.decode([Double].self, forKey: .centerOffset, default: [0, 0],
                                               where: { $0.count == 2 && $0.allSatisfy(\.isFinite) },
                                               expected: "[dx, dy], two numbers in points"))
    }
}

/// The geometry of cluster icons from a member count upward, in points.
public struct ClusterSizeBucket: Sendable, Hashable {
    /// The smallest member count this bucket applies to.
    public var minimumCount: Int
    /// The icon's width and height (the outer disc's diameter).
    public var diameter: Double
    /// The inner disc's diameter; 0 draws no inner disc.
    public var innerDiameter: Double
    /// The count's font size.
    public var fontSize: Double
    /// The widest the count's ink may be; a wider count is drawn smaller to fit.
    /// Default: halfway between the inner and outer diameters, so the text may reach halfway into the ring.
    public var maxTextWidth: Double

    /// Creates a bucket; `maxTextWidth` defaults to halfway between the two diameters.
    public init(minimumCount: Int, diameter: Double, innerDiameter: Double, fontSize: Double, maxTextWidth: Double? = nil) {
        self.minimumCount = minimumCount
        self.diameter = diameter
        self.innerDiameter = innerDiameter
        self.fontSize = fontSize
        self.maxTextWidth = maxTextWidth ?? (diameter + innerDiameter) / 2
    }
}

extension ClusterSizeBucket: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case minimumCount, diameter, innerDiameter, fontSize, maxTextWidth
    }

    /// Decodes and validates the sizes (diameter 1…1024, inner disc smaller, positive font).
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let diameter = try container.decode(Double.self, forKey: .diameter, where: { (1...1024).contains($0) },
                                            expected: "a diameter in 1…1024 points")
        self.init(
            minimumCount: try container.decode(Int.self, forKey: .minimumCount, where: { $0 >= 1 },
                                               expected: "a whole number ≥ 1"),
            diameter: diameter,
            innerDiameter: try container.decode(Double.self, forKey: .innerDiameter, where: { $0 >= 0 && $0 < diameter },
                                                expected: "a number ≥ 0 and smaller than diameter (\(diameter))"),
            fontSize: try container.decode(Double.self, forKey: .fontSize, where: { $0 > 0 && $0 <= diameter },
                                           expected: "a size > 0 and at most diameter (\(diameter))"),
            maxTextWidth: try container.decodeIfPresent(Double.self, forKey: .maxTextWidth).map { width in
                guard width > 0 && width <= diameter else {
                    throw DecodingError.dataCorruptedError(forKey: .maxTextWidth, in: container,
                                                           debugDescription: "expected a width > 0 and at most diameter (\(diameter))")
                }
                return width
            })
    }
}

/// How balloon markers (single points) look, in points: a round head over a pointed tail whose tip is the point.
public struct BalloonStyle: Sendable, Hashable, Codable {
    /// The balloon's width, which is also the head's diameter. Default 30.
    public var width: Double
    /// The balloon's height from the top of the head to the tip. Default 40.
    public var height: Double
    /// The side of the square the glyph is fitted into, centred in the head. Default 18.
    public var glyphSize: Double
    /// The glyph's colour. Default white.
    public var glyphColor: RGBAColor
    /// The width of the outline drawn in a darker shade of the tint; 0 for none. Default 1.
    public var strokeWidth: Double
    /// The factor applied to the tint for the outline. Default 0.75.
    public var strokeShade: Double

    /// Creates a balloon style; see the properties for the defaults.
    public init(width: Double = 30, height: Double = 40, glyphSize: Double = 18, glyphColor: RGBAColor = .white,
                strokeWidth: Double = 1, strokeShade: Double = 0.75) {
        self.width = width
        self.height = height
        self.glyphSize = glyphSize
        self.glyphColor = glyphColor
        self.strokeWidth = strokeWidth
        self.strokeShade = strokeShade
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case width, height, glyphSize, glyphColor, strokeWidth, strokeShade
    }

    /// Decodes and validates: a tail below the head (height > width), a glyph that fits the head.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = BalloonStyle()
        let width = try container.decode(Double.self, forKey: .width, default: defaults.width,
                                         where: { (4...512).contains($0) }, expected: "a width in 4…512 points")
        self.init(
            width: width,
            height: try container.decode(Double.self, forKey: .height, default: defaults.height,
                                         where: { $0 > width && $0 <= 1024 },
                                         expected: "a height greater than width (\(width)) and at most 1024"),
            glyphSize: try container.decode(Double.self, forKey: .glyphSize, default: defaults.glyphSize,
                                            where: { $0 > 0 && $0 <= width }, expected: "a size > 0 and at most width (\(width))"),
            glyphColor: try container.decodeIfPresent(RGBAColor.self, forKey: .glyphColor) ?? defaults.glyphColor,
            strokeWidth: try container.decode(Double.self, forKey: .strokeWidth, default: defaults.strokeWidth,
                                              where: { $0 >= 0 && $0 <= width / 4 }, expected: "a width ≥ 0 and at most a quarter of the balloon's width"),
            strokeShade: try container.decode(Double.self, forKey: .strokeShade, default: defaults.strokeShade,
                                              where: { (0...2).contains($0) }, expected: "a factor in 0…2"))
    }
}
