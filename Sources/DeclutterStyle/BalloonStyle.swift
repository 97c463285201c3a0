import DeclutterSupport

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
    public init(
        width: Double = 30, height: Double = 40, glyphSize: Double = 18, glyphColor: RGBAColor = .white,
        strokeWidth: Double = 1, strokeShade: Double = 0.75
    ) {
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
        let width = try container.decode(
            Double.self, forKey: .width, default: defaults.width,
            where: { (4...512).contains($0) }, expected: "a width in 4…512 points")
        self.init(
            width: width,
            height: try container.decode(
                Double.self, forKey: .height, default: defaults.height,
                where: { $0 > width && $0 <= 1024 },
                expected: "a height greater than width (\(width)) and at most 1024"),
            glyphSize: try container.decode(
                Double.self, forKey: .glyphSize, default: defaults.glyphSize,
                where: { $0 > 0 && $0 <= width }, expected: "a size > 0 and at most width (\(width))"),
            glyphColor: try container.decodeIfPresent(RGBAColor.self, forKey: .glyphColor) ?? defaults.glyphColor,
            strokeWidth: try container.decode(
                Double.self, forKey: .strokeWidth, default: defaults.strokeWidth,
                where: { $0 >= 0 && $0 <= width / 4 },
                expected: "a width ≥ 0 and at most a quarter of the balloon's width"),
            strokeShade: try container.decode(
                Double.self, forKey: .strokeShade, default: defaults.strokeShade,
                where: { (0...2).contains($0) }, expected: "a factor in 0…2"))
    }
}
