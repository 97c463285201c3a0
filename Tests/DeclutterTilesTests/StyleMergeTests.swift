import DeclutterMapContent
import DeclutterTiles
import Foundation
import Testing

/// `tiles --base-style FILE --before-layer ID`: Declutter's source, layers, sprite sheet and glyphs merged into a
/// style of the user's own; checked in MapLibre GL JS 5.3 by hand (a sprite array, icons named `declutter:NAME`,
/// no missing image).
@Suite struct StyleMergeTests {
    /// Declutter's own style for a folder at `https://maps.example.org/`.
    static func ours() throws -> Data {
        var style = MapLibreStyle(
            tiles: .template("tiles/{z}/{x}/{y}.pbf", minimumZoom: 0, maximumZoom: 8),
            baseURL: "https://maps.example.org/")
        style.countText = .init(
            glyphs: "glyphs/{fontstack}/{range}.pbf", font: "DejaVu Sans Bold", color: .black, inkDrop: 0.1)
        return try style.jsonData()
    }

    static func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func base(_ extra: [String: Any]) throws -> Data {
        var style: [String: Any] = [
            "version": 8, "name": "Mine",
            "sources": ["land": ["type": "vector", "url": "https://tiles.example/land.json"]],
            "layers": [
                ["id": "water", "type": "background"], ["id": "places", "type": "symbol", "source": "land"],
            ],
        ]
        style.merge(extra) { $1 }
        return try JSONSerialization.data(withJSONObject: style)
    }

    @Test func aBaseStylesSpriteBecomesAnArrayAndItsGlyphsAreKept() throws {
        let merged = try StyleMerge.merge(
            base: try Self.base([
                "sprite": "https://tiles.example/sprite", "glyphs": "https://tiles.example/{fontstack}/{range}.pbf",
            ]), ours: try Self.ours(), beforeLayer: "places", glyphFolder: "glyphs")
        let style = try Self.object(merged.style)
        #expect(style["name"] as? String == "Mine")
        let sprites = try #require(style["sprite"] as? [[String: String]])
        #expect(
            sprites == [
                ["id": "default", "url": "https://tiles.example/sprite"],
                ["id": "declutter", "url": "https://maps.example.org/sprite"],
            ])
        #expect(style["glyphs"] as? String == "https://tiles.example/{fontstack}/{range}.pbf")
        let layers = try #require(style["layers"] as? [[String: Any]])
        #expect(layers.compactMap { $0["id"] as? String } == ["water", "markers", "clusters", "places"])
        let icon = (layers[2]["layout"] as? [String: Any])?["icon-image"] as? [Any]
        #expect(icon?.first as? String == "concat")
        #expect(icon?.dropFirst().first as? String == "declutter:")
        #expect(Set((style["sources"] as? [String: Any])?.keys.map { $0 } ?? []) == ["land", "declutter"])
        #expect(
            merged.notes == [
                "the base style's glyphs (https://tiles.example/{fontstack}/{range}.pbf) are kept, as a style has one glyph URL: the counts ask them for \"DejaVu Sans Bold\"; serve the ranges of glyphs/DejaVu Sans Bold/ beside its fonts",
                "the base style's symbol layers above the clusters (places) are placed before them, as MapLibre places the top layers first, so their labels may print over the icons; without --before-layer the icons keep labels off them",
            ])
    }

    @Test func aBaseStyleWithoutSpriteOrGlyphsTakesDeclutters() throws {
        let merged = try StyleMerge.merge(
            base: try Self.base([:]), ours: try Self.ours(), beforeLayer: nil, glyphFolder: "glyphs")
        let style = try Self.object(merged.style)
        #expect(style["sprite"] as? String == "https://maps.example.org/sprite")
        #expect(style["glyphs"] as? String == "https://maps.example.org/glyphs/{fontstack}/{range}.pbf")
        let layers = try #require(style["layers"] as? [[String: Any]])
        #expect(layers.compactMap { $0["id"] as? String } == ["water", "places", "markers", "clusters"])
        let icon = (layers[3]["layout"] as? [String: Any])?["icon-image"] as? [String]
        #expect(icon == ["get", "sprite"])
        // The base style's labels are placed after the icons and kept off them (they were printed across them).
        for layer in layers[2...] {
            #expect((layer["layout"] as? [String: Any])?["icon-ignore-placement"] as? Bool == false)
            #expect((layer["layout"] as? [String: Any])?["icon-allow-overlap"] as? Bool == true)
        }
        #expect(merged.notes.isEmpty)
    }

    /// The legend joins the base style's metadata, whose own keys stay; a base style without metadata gets it.
    @Test func theLegendJoinsTheBaseStylesMetadata() throws {
        var style = MapLibreStyle(tiles: .tileJSON("tiles.json"), baseURL: "https://maps.example.org/")
        style.legend = MapLegend(title: "cc", rows: [.init(name: "FR", color: .black, count: 2)])
        let ours = try style.jsonData()
        let kept = try Self.object(
            StyleMerge.merge(
                base: try Self.base(["metadata": ["maputnik:renderer": "mlgljs"]]), ours: ours, beforeLayer: nil,
                glyphFolder: "glyphs"
            ).style)
        let metadata = try #require(kept["metadata"] as? [String: Any])
        #expect(metadata["maputnik:renderer"] as? String == "mlgljs")
        let legend = try #require(metadata["declutter:legend"] as? [String: Any])
        #expect(legend["title"] as? String == "cc")
        #expect((legend["rows"] as? [[String: Any]])?.first?["count"] as? Int == 2)
        let added = try Self.object(
            StyleMerge.merge(base: try Self.base([:]), ours: ours, beforeLayer: nil, glyphFolder: "glyphs").style)
        #expect((added["metadata"] as? [String: Any])?["declutter:legend"] != nil)
        #expect(throws: StyleMerge.Failure.self) {
            try StyleMerge.merge(
                base: try Self.base(["metadata": 3]), ours: ours, beforeLayer: nil, glyphFolder: "glyphs")
        }
    }

    /// Each case's additions to the base style, as JSON.
    @Test(arguments: [
        (
            #"{"sprite": [{"id": "declutter", "url": "https://x/s"}]}"#, nil as String?,
            "the base style has a sprite sheet of id declutter already, Declutter's sheet's id"
        ),
        (
            #"{"sources": {"declutter": {"type": "vector"}}}"#, nil,
            "the base style has a source named declutter already, Declutter's source's id"
        ),
        ("{}", "roads", "--before-layer roads: the base style has no such layer; its layers: water, places"),
        (#"{"version": 7}"#, nil, "the base style is not a MapLibre style of version 8"),
    ])
    func whatCannotBeMergedIsNamed(extra: String, before: String?, message: String) throws {
        let base = try Self.base(Self.object(Data(extra.utf8))), ours = try Self.ours()
        #expect(throws: StyleMerge.Failure.self) {
            try StyleMerge.merge(base: base, ours: ours, beforeLayer: before, glyphFolder: "glyphs")
        }
        do {
            _ = try StyleMerge.merge(base: base, ours: ours, beforeLayer: before, glyphFolder: "glyphs")
        } catch {
            #expect(error.description == message)
        }
    }
}
