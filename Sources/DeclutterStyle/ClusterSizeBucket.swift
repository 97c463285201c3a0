import DeclutterSupport

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
    public init(
        minimumCount: Int, diameter: Double, innerDiameter: Double, fontSize: Double, maxTextWidth: Double? = nil
    ) {
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
        let diameter = try container.decode(
            Double.self, forKey: .diameter, where: { (1...1024).contains($0) },
            expected: "a diameter in 1…1024 points")
        self.init(
            minimumCount: try container.decode(
                Int.self, forKey: .minimumCount, where: { $0 >= 1 },
                expected: "a whole number ≥ 1"),
            diameter: diameter,
            innerDiameter: try container.decode(
                Double.self, forKey: .innerDiameter, where: { $0 >= 0 && $0 < diameter },
                expected: "a number ≥ 0 and smaller than diameter (\(diameter))"),
            fontSize: try container.decode(
                Double.self, forKey: .fontSize, where: { $0 > 0 && $0 <= diameter },
                expected: "a size > 0 and at most diameter (\(diameter))"),
            maxTextWidth: try container.decodeIfPresent(Double.self, forKey: .maxTextWidth).map { width in
                guard width > 0 && width <= diameter else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .maxTextWidth, in: container,
                        debugDescription: "expected a width > 0 and at most diameter (\(diameter))")
                }
                return width
            })
    }
}
