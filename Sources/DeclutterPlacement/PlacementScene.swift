import DeclutterSupport
import Foundation

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

    /// The most annotations a scene may hold (1,000,000): placement's work and memory grow about linearly with
    /// them, and a scene with more is refused before its annotations are read.
    public static let maximumAnnotations = 1_000_000
    /// The widest and tallest viewport a scene may have, in points (1,000,000).
    public static let maximumViewportSide = 1_000_000.0
    /// The farthest a position or offset may lie from the viewport's origin, and the largest view, in points
    /// (1,000,000,000): beyond, collision cells would be shared by everything and placement would slow to a crawl.
    public static let maximumCoordinate = 1_000_000_000.0

    /// Creates a scene.
    public init(
        width: Double, height: Double, clusterView: ClusterViewDescription = ClusterViewDescription(),
        annotations: [PlacementAnnotation]
    ) {
        self.width = width
        self.height = height
        self.clusterView = clusterView
        self.annotations = annotations
    }
}

extension PlacementScene {
    /// Decodes a scene from JSON text (see ``init(from:)``), refusing one of more than ``maximumAnnotations``
    /// annotations before any value is built: a first pass counts them keeping nothing, so an oversized scene costs
    /// a read of its text, not the memory of its parse (1,000,001 small annotations: 386 MB parsed whole, 68 MB counted
    /// first).
    ///
    /// - Throws: ``JSONSyntaxError`` for text that is not JSON; `DecodingError` naming the field otherwise.
    public static func decode(from data: Data) throws -> PlacementScene {
        let count = try JSONParser.read(data) { (parser: inout JSONParser) throws -> Int? in
            guard parser.atObject() else { return nil }
            var count: Int?
            try parser.members { (key, parser) throws in
                guard key == CodingKeys.annotations.stringValue, parser.atArray() else { return try parser.skip() }
                var elements = 0
                try parser.elements { (_, parser) throws in
                    elements += 1
                    try parser.skip()
                }
                count = elements
            }
            return count
        }
        if let count, count > maximumAnnotations {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: [CodingKeys.annotations],
                    debugDescription: "expected at most \(maximumAnnotations) annotations, got \(count)"))
        }
        return try JSONValueDecoder.decode(Self.self, from: data)
    }
}

extension PlacementScene: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case viewport, clusterView, annotations }
    enum ViewportKeys: String, CodingKey, CaseIterable { case width, height }

    /// Decodes `{"viewport": {"width", "height"}, "clusterView": {...}, "annotations": [...]}`, rejecting unknown
    /// fields.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let viewport = try container.nestedContainer(keyedBy: ViewportKeys.self, forKey: .viewport)
        let largest = Self.maximumViewportSide, limit = JSONValue.format(largest)
        let width = try viewport.decode(
            Double.self, forKey: .width, where: { $0 > 0 && $0 <= largest },
            expected: "a width in points, > 0 and at most \(limit)")
        let height = try viewport.decode(
            Double.self, forKey: .height, where: { $0 > 0 && $0 <= largest },
            expected: "a height in points, > 0 and at most \(limit)")
        let clusterView =
            try container.decodeIfPresent(ClusterViewDescription.self, forKey: .clusterView) ?? ClusterViewDescription()
        // Counted before any annotation is decoded, so an oversized scene costs nothing more than its parse.
        let list = try container.nestedUnkeyedContainer(forKey: .annotations)
        if let count = list.count, count > Self.maximumAnnotations {
            throw DecodingError.dataCorruptedError(
                forKey: .annotations, in: container,
                debugDescription:
                    "expected at most \(Self.maximumAnnotations) annotations, got \(count)")
        }
        self.init(
            width: width, height: height, clusterView: clusterView,
            annotations: try container.decode([PlacementAnnotation].self, forKey: .annotations))
        let ids = annotations.map(\.id)
        if Set(ids).count != ids.count,
            let repeated = ids.enumerated().first(where: { ids.firstIndex(of: $0.element) != $0.offset })
        {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: [
                        CodingKeys.annotations, AnyCodingKey(intValue: repeated.offset),
                        AnyCodingKey(stringValue: "id"),
                    ],
                    debugDescription: "expected a unique id; \"\(repeated.element)\" is used before"))
        }
    }
}
