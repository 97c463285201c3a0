import DeclutterGeometry
import DeclutterMapContent
import DeclutterStyle
import DeclutterSupport
import DeclutterTiles
import Foundation
import Testing

/// `style.json` as MapLibre reads it: every value of the document, every URL absolute.
@Suite struct MapLibreStyleTests {
    /// The package's TANDm marker style, found from this file.
    static let tandmURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Styles/tandm.json")

    @Test func aFolderTileSetForTANDmGivesTheWholeDocument() throws {
        let markerStyle = try MarkerStyle.load(contentsOf: Self.tandmURL)
        let style = MapLibreStyle(
            markerStyle: markerStyle,
            tiles: .template(
                "tiles/{z}/{x}/{y}.pbf", minimumZoom: 13, maximumZoom: 16,
                bounds: .init(west: -122.4175, south: 37.8025, east: -122.4093, north: 37.8075)),
            baseURL: "http://127.0.0.1:8123/maps")
        let text = try #require(String(data: try style.jsonData(), encoding: .utf8))
        #expect(
            text == """
                {"version":8,"name":"TANDm","sprite":"http://127.0.0.1:8123/maps/sprite",\
                "sources":{"declutter":{"type":"vector","tiles":["http://127.0.0.1:8123/maps/tiles/{z}/{x}/{y}.pbf"],\
                "minzoom":13,"maxzoom":16,"bounds":[-122.4175,37.8025,-122.4093,37.8075]}},\
                "layers":[{"id":"background","type":"background","paint":{"background-color":"#F2EFE9"}},\
                {"id":"markers","type":"symbol","source":"declutter","source-layer":"points","filter":["!=",["get","cluster"],true],\
                "layout":{"icon-image":["get","sprite"],"icon-anchor":"bottom","icon-allow-overlap":true,"icon-ignore-placement":true,"symbol-sort-key":["coalesce",["get","point_count"],1]}},\
                {"id":"clusters","type":"symbol","source":"declutter","source-layer":"points","filter":["==",["get","cluster"],true],\
                "layout":{"icon-image":["get","sprite"],"icon-offset":[0,-10],"icon-allow-overlap":true,"icon-ignore-placement":true,"symbol-sort-key":["coalesce",["get","point_count"],1]}}]}

                """)
    }

    /// The legend goes into the style's metadata, where a page finds it: MapLibre draws none and keeps the metadata.
    @Test func theLegendIsTheStylesMetadata() throws {
        var style = MapLibreStyle(tiles: .tileJSON("tiles.json"))
        #expect(try style.jsonValue().object?["metadata"] == nil)
        style.legend = MapLegend(
            title: "cc",
            rows: [
                .init(name: "FR", color: RGBAColor(red: 1, green: 0, blue: 0), count: 12),
                .init(name: "other", color: RGBAColor(red: 0, green: 0, blue: 1), count: 3, values: 2),
            ])
        #expect(
            try style.jsonValue().object?["metadata"]?.jsonText
                == ##"{"declutter:legend":{"title":"cc","rows":[{"name":"FR","color":"#FF0000","count":12},"##
                + ##"{"name":"other","color":"#0000FF","count":3,"values":2}]}}"##)
    }

    @Test func theDefaultBaseURLIsWherePythonsServerServesTheFolder() throws {
        let style = MapLibreStyle(tiles: .template("tiles/{z}/{x}/{y}.pbf", minimumZoom: 0, maximumZoom: 16))
        let root = try #require(try style.jsonValue().object)
        #expect(root["sprite"] == .string("http://localhost:8000/sprite"))
        let source = try #require(root["sources"]?.object?["declutter"]?.object)
        #expect(source["tiles"] == .array([.string("http://localhost:8000/tiles/{z}/{x}/{y}.pbf")]))
        #expect(source["minzoom"] == .number(0))
        #expect(source["maxzoom"] == .number(16))
        #expect(source["bounds"] == nil)
        #expect(root["name"] == .string("Declutter"))
        // No icon offset for a style whose clusters sit on their points.
        let clusters = try #require(root["layers"]?.array?.last?.object?["layout"]?.object)
        #expect(clusters.keys == ["icon-image", "icon-allow-overlap", "icon-ignore-placement", "symbol-sort-key"])
    }

    @Test func tileJSONAndPMTilesSourcesAreURLs() throws {
        let tileJSON = MapLibreStyle(tiles: .tileJSON("tiles.json"), baseURL: "https://example.com/maps/")
        #expect(
            try tileJSON.jsonValue().object?["sources"]
                == .object(
                    JSONObject([
                        (
                            "declutter",
                            .object(
                                JSONObject([
                                    ("type", .string("vector")),
                                    ("url", .string("https://example.com/maps/tiles.json")),
                                ]))
                        )
                    ])))
        let pmtiles = MapLibreStyle(tiles: .pmtiles("cycles.pmtiles"), baseURL: "https://example.com/maps/")
        #expect(
            try pmtiles.jsonValue().object?["sources"]?.object?["declutter"]?.object?["url"]
                == .string("pmtiles://https://example.com/maps/cycles.pmtiles"))
        // A path that is a URL already is kept, whatever the base.
        let elsewhere = MapLibreStyle(
            tiles: .tileJSON("https://tiles.example.org/cycles.json"), baseURL: "file:///srv/maps",
            sprite: "https://cdn.example.org/sprites/tandm")
        let root = try #require(try elsewhere.jsonValue().object)
        #expect(
            root["sources"]?.object?["declutter"]?.object?["url"] == .string("https://tiles.example.org/cycles.json"))
        #expect(root["sprite"] == .string("https://cdn.example.org/sprites/tandm"))
    }

    @Test func optionsChangeTheirFields() throws {
        let style = MapLibreStyle(
            name: "Cycles", tiles: .template("{z}/{x}/{y}.pbf", minimumZoom: 2, maximumZoom: 2),
            baseURL: "http://localhost:9000/", sprite: "icons/sheet", sourceLayer: "cycles",
            backgroundColor: RGBAColor(red: 1, green: 0.5, blue: 0, alpha: 0.25), clusterOffset: (3, 4.5),
            showsEveryIcon: false, center: Coordinate(longitude: -122.4134, latitude: 37.805), zoom: 15)
        let root = try #require(try style.jsonValue().object)
        #expect(root.keys == ["version", "name", "center", "zoom", "sprite", "sources", "layers"])
        #expect(root["center"] == .array([.number(-122.4134), .number(37.805)]))
        #expect(root["zoom"] == .number(15))
        #expect(root["sprite"] == .string("http://localhost:9000/icons/sheet"))
        let layers = try #require(root["layers"]?.array).compactMap { $0.object }
        #expect(layers.map { $0["id"] } == [.string("background"), .string("markers"), .string("clusters")])
        #expect(layers[0]["paint"] == .object(JSONObject([("background-color", .string("rgba(255, 128, 0, 0.25)"))])))
        #expect(layers[1]["source-layer"] == .string("cycles"))
        #expect(
            layers[1]["layout"]
                == .object(
                    JSONObject([
                        ("icon-image", .array([.string("get"), .string("sprite")])), ("icon-anchor", .string("bottom")),
                    ])))
        #expect(layers[2]["layout"]?.object?["icon-offset"] == .array([.number(3), .number(4.5)]))
        #expect(layers[2]["layout"]?.object?["icon-allow-overlap"] == nil)

        var transparent = style
        transparent.backgroundColor = nil
        #expect(
            try transparent.jsonValue().object?["layers"]?.array?.compactMap { $0.object?["id"] } == [
                .string("markers"), .string("clusters"),
            ])
    }

    @Test func boundsComeFromAWebMercatorBox() throws {
        var world = WorldBounds()
        world.include(Coordinate(longitude: -122.5, latitude: 37.5))
        world.include(Coordinate(longitude: -122, latitude: 38))
        let bounds = TileBounds(world)
        #expect(abs(bounds.west - -122.5) < 1e-9)
        #expect(abs(bounds.south - 37.5) < 1e-9)
        #expect(abs(bounds.east - -122) < 1e-9)
        #expect(abs(bounds.north - 38) < 1e-9)
    }

    @Test func relativeOrOddURLsAreRefusedWithTheirField() throws {
        for base in ["", "maps/", "/srv/maps/", "ftp://example.com/", "http://", "1http://example.com/"] {
            let style = MapLibreStyle(tiles: .tileJSON("tiles.json"), baseURL: base)
            #expect(throws: MapLibreStyleError.baseURL(base)) { try style.jsonData() }
        }
        let rooted = MapLibreStyle(tiles: .pmtiles("/cycles.pmtiles"))
        #expect(throws: MapLibreStyleError.path("/cycles.pmtiles", field: "pmtiles")) { try rooted.jsonData() }
        let noSprite = MapLibreStyle(tiles: .pmtiles("cycles.pmtiles"), sprite: "")
        #expect(throws: MapLibreStyleError.path("", field: "sprite")) { try noSprite.jsonData() }
        let zooms = MapLibreStyle(tiles: .template("{z}/{x}/{y}.pbf", minimumZoom: 10, maximumZoom: 4))
        #expect(throws: MapLibreStyleError.zooms(minimum: 10, maximum: 4)) { try zooms.jsonData() }
        let empty = TileBounds(WorldBounds())
        let nowhere = MapLibreStyle(tiles: .template("{z}/{x}/{y}.pbf", minimumZoom: 0, maximumZoom: 4, bounds: empty))
        #expect(throws: MapLibreStyleError.bounds(empty)) { try nowhere.jsonData() }
        let upsideDown = TileBounds(west: 0, south: 10, east: 1, north: 5)
        #expect(throws: MapLibreStyleError.bounds(upsideDown)) {
            try MapLibreStyle(tiles: .template("{z}/{x}/{y}.pbf", minimumZoom: 0, maximumZoom: 4, bounds: upsideDown))
                .jsonData()
        }
        #expect(
            MapLibreStyleError.bounds(upsideDown).description
                == "tiles: expected finite bounds with west ≤ east and south ≤ north, got [0.0, 10.0, 1.0, 5.0]")
        #expect(
            MapLibreStyleError.baseURL("maps/").description
                == "base URL: expected an absolute http, https or file URL (MapLibre needs absolute sprite and tile URLs), got \"maps/\""
        )
    }
}
