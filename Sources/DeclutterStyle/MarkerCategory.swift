import DeclutterPlacement
import DeclutterSupport

/// One kind of point: its colour in cluster slices and balloons, its glyph, and how its views take part in placement.
public struct MarkerCategory: Sendable, Hashable {
    /// The name points carry in their category property, e.g. `"bicycle"`.
    public var name: String
    /// The tint of its balloon and of its slice in cluster icons.
    public var color: RGBAColor
    /// What the balloon marker shows in the glyph colour; nil draws a plain dot.
    public var glyph: Glyph?
    /// When true, a cluster holding any member of this category is drawn entirely in its colour
    /// (TANDm's unicycle rule). Default false.
    public var solidCluster: Bool
    /// Views of points with the same identifier merge into clusters; nil never clusters. Default: the category name.
    public var clusteringIdentifier: String?
    /// The priority of this category's balloon markers. Default `defaultHigh`.
    public var displayPriority: DisplayPriority
    /// The size of its balloon against the style's, for markers drawn smaller or larger than the rest (a static-map
    /// URL's `pin-s` next to `pin-l`); not read from style files. Default 1.
    public var balloonScale = 1.0
    /// The colour of its balloon's glyph in place of the style's ``BalloonStyle/glyphColor``, for a balloon tinted
    /// too light for it (a static-map URL's white or yellow pin); not read from style files. Default nil.
    public var glyphColor: RGBAColor?

    /// Creates a category; see the properties for the defaults.
    public init(
        name: String, color: RGBAColor, glyph: Glyph? = nil, solidCluster: Bool = false,
        clusteringIdentifier: String? = nil, displayPriority: DisplayPriority = .defaultHigh
    ) {
        self.name = name
        self.color = color
        self.glyph = glyph
        self.solidCluster = solidCluster
        self.clusteringIdentifier = clusteringIdentifier ?? name
        self.displayPriority = displayPriority
    }
}

extension MarkerCategory: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, color, glyph, solidCluster, clusteringIdentifier, displayPriority
    }

    /// Decodes a category, rejecting unknown fields and empty names.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(
            String.self, forKey: .name, where: { !$0.isEmpty && !$0.contains(where: { ",=".contains($0) }) },
            expected: "a non-empty name without ',' or '='")
        self.init(
            name: name,
            color: try container.decode(RGBAColor.self, forKey: .color),
            glyph: try container.decodeIfPresent(Glyph.self, forKey: .glyph),
            solidCluster: try container.decodeIfPresent(Bool.self, forKey: .solidCluster) ?? false,
            clusteringIdentifier: try container.decodeIfPresent(String.self, forKey: .clusteringIdentifier),
            displayPriority: try container.decodeIfPresent(DisplayPriority.self, forKey: .displayPriority)
                ?? .defaultHigh)
    }
}
