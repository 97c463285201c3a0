import DeclutterSupport

/// How a line or area is painted: stroke, width, fill and overall opacity.
public struct ShapePaint: Sendable, Hashable {
    /// The outline colour.
    public var stroke: RGBAColor
    /// The outline width in points; 0 draws none.
    public var width: Double
    /// The area colour for polygons and circles; nil leaves them unfilled.
    public var fill: RGBAColor?
    /// Multiplies the alpha of stroke and fill, 0…1.
    public var opacity: Double

    /// Creates a paint.
    public init(stroke: RGBAColor, width: Double, fill: RGBAColor? = nil, opacity: Double = 1) {
        self.stroke = stroke
        self.width = width
        self.fill = fill
        self.opacity = opacity
    }
}

extension ShapePaint: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable { case stroke, width, fill, opacity }

    /// Decodes and validates: a width of 0…100 points, an opacity of 0…1.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            stroke: try container.decode(RGBAColor.self, forKey: .stroke),
            width: try container.decode(
                Double.self, forKey: .width, default: 2, where: { (0...100).contains($0) },
                expected: "a width of 0…100 points"),
            fill: try container.decodeIfPresent(RGBAColor.self, forKey: .fill),
            opacity: try container.decode(
                Double.self, forKey: .opacity, default: 1, where: { (0...1).contains($0) },
                expected: "an opacity of 0…1"))
    }

    /// Encodes the same shape it decodes.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(stroke, forKey: .stroke)
        try container.encode(width, forKey: .width)
        try container.encodeIfPresent(fill, forKey: .fill)
        try container.encode(opacity, forKey: .opacity)
    }
}
