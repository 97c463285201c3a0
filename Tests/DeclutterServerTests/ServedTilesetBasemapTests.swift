import DeclutterTiles
import Foundation
import Testing

@testable import DeclutterServer

/// A tileset's style without a basemap is drawn over the server's; one with a basemap of its own is left as it is.
@Suite struct ServedTilesetBasemapTests {
    /// Another tool's archive gets the plain style: the basemap goes between its background and its layers.
    @Test func aPlainStyleGetsTheBasemapAboveItsBackground() throws {
        var style: [String: Any] = [
            "sources": [MapLibreStyle.sourceID: ["type": "vector"]],
            "layers": ServedTileset.plainLayers(vectorLayers: Data(#"[{"id":"roads"}]"#.utf8)),
        ]
        ServedTileset.addingBasemap(to: &style, baseURL: "http://127.0.0.1:8080/")
        let ids = (style["layers"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(
            ids == [
                "background", "basemap-land", "basemap-lakes", "basemap-rivers", "basemap-states", "basemap-countries",
                "roads-fill", "roads-line", "roads-circle",
            ])
        let sources = style["sources"] as? [String: Any] ?? [:]
        let basemap = sources[MapLibreStyle.basemapSourceID] as? [String: Any]
        #expect(basemap?["tiles"] as? [String] == ["http://127.0.0.1:8080/basemap/{z}/{x}/{y}.mvt"])
        #expect(sources[MapLibreStyle.sourceID] != nil)
    }

    @Test func aStyleWithABasemapOrWithoutLayersIsLeftAsItIs() throws {
        let own: [String: Any] = [
            "sources": ["basemap": ["type": "vector", "tiles": ["x"]]],
            "layers": [["id": "background", "type": "background"]],
        ]
        var style = own
        ServedTileset.addingBasemap(to: &style, baseURL: "http://h/")
        #expect(NSDictionary(dictionary: style).isEqual(to: own))
        // Layers reading the basemap under another source's name count as a basemap too.
        let named: [String: Any] = [
            "sources": ["land": ["type": "vector"]],
            "layers": [["id": "basemap-land", "type": "fill", "source": "land"]],
        ]
        style = named
        ServedTileset.addingBasemap(to: &style, baseURL: "http://h/")
        #expect(NSDictionary(dictionary: style).isEqual(to: named))
        var empty: [String: Any] = ["sources": [String: Any]()]
        ServedTileset.addingBasemap(to: &empty, baseURL: "http://h/")
        #expect((empty["sources"] as? [String: Any])?.isEmpty == true)
    }
}
