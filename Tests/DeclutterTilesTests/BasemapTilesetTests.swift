import DeclutterBasemap
import DeclutterStyle
import DeclutterSupport
import Foundation
import Testing

@testable import DeclutterTiles

/// The embedded basemap's vector tiles read back with the tests' own decoder: the layers where the world has them,
/// nothing at sea, the place names, and rings as the spec orients them.
@Suite struct BasemapTilesetTests {
    static let tileset = Result { try BasemapTileset(file: try EmbeddedBasemap.file()) }

    /// The tile's layers by name.
    static func layers(z: Int, x: Int, y: Int) throws -> [String: TileDecoder.Layer] {
        guard let data = try tileset.get().tile(z: z, x: x, y: y) else { return [:] }
        return Dictionary(try TileDecoder.decode(data).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// A feature's rings or lines in tile units, from its geometry commands.
    static func parts(_ feature: TileDecoder.Feature) throws -> [[(x: Int64, y: Int64)]] {
        func unzigzag(_ value: UInt64) -> Int64 { Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1) }
        var parts: [[(x: Int64, y: Int64)]] = [], x: Int64 = 0, y: Int64 = 0, index = 0
        let geometry = feature.geometry
        while index < geometry.count {
            let command = geometry[index] & 7, count = Int(geometry[index] >> 3)
            index += 1
            switch command {
            case 1, 2:
                for _ in 0..<count {
                    guard index + 1 < geometry.count else { throw TileDecoder.Malformed() }
                    x += unzigzag(geometry[index])
                    y += unzigzag(geometry[index + 1])
                    index += 2
                    if command == 1 { parts.append([]) }
                    parts[parts.count - 1].append((x, y))
                }
            case 7: break
            default: throw TileDecoder.Malformed()
            }
        }
        return parts
    }

    /// Twice a ring's signed area in tile units (y down): positive when clockwise on screen.
    static func doubleArea(_ ring: [(x: Int64, y: Int64)]) -> Int64 {
        guard var previous = ring.last else { return 0 }
        var sum: Int64 = 0
        for point in ring {
            sum += previous.x * point.y - point.x * previous.y
            previous = point
        }
        return sum
    }

    @Test func franceAtZoom4HasLandBordersRiversAndParis() throws {
        // Zoom 4, column 8, row 5: France, the Low Countries, western Germany, the Alps.
        let layers = try Self.layers(z: 4, x: 8, y: 5)
        #expect(Set(layers.keys).isSuperset(of: ["land", "lakes", "rivers", "countries", "places"]))
        let land = try #require(layers["land"])
        #expect(land.features.count == 1)
        #expect(land.features.first?.type == 3)
        #expect(land.extent == 4096 && land.version == 2)
        let countries = try #require(layers["countries"])
        #expect(countries.features.first?.type == 2)
        #expect(try Self.parts(countries.features[0]).count > 10)
        let places = try #require(layers["places"])
        let named = places.features.map { places.properties($0) }
        let paris = try #require(named.first { $0["name"] == .string("Paris") })
        #expect(paris["min_zoom"] == .double(1.7))
        // Paris is 0.5065 world units east, 0.3440 south: in zoom 4's tile 8/5 at about (0.104, 0.504) of it.
        let point = try #require(
            places.point(places.features[named.firstIndex { $0["name"] == .string("Paris") } ?? 0]))
        #expect(abs(Double(point.x) - 0.104 * 4096) < 20)
        #expect(abs(Double(point.y) - 0.504 * 4096) < 20)
    }

    @Test func placesAppearFromTheZoomTheyAreNamedAt() throws {
        // Paris is named from static zoom 1.7: in tiles from zoom 1 (static zoom 2), not at zoom 0.
        func names(z: Int, x: Int, y: Int) throws -> [VectorTileValue?] {
            let places = try Self.layers(z: z, x: x, y: y)["places"]
            return places.map { layer in layer.features.map { layer.properties($0)["name"] } } ?? []
        }
        #expect(try names(z: 0, x: 0, y: 0).contains(.string("Paris")) == false)
        #expect(try names(z: 1, x: 1, y: 0).contains(.string("Paris")))
        #expect(try names(z: 1, x: 1, y: 0).contains(.string("Berlin")) == false)
        #expect(try names(z: 2, x: 2, y: 1).contains(.string("Berlin")))
    }

    @Test func openSeaHasNoTile() throws {
        // Zoom 5, column 4, row 13: the Pacific between Hawaii and Baja California, 135–124° W, 22–32° N.
        #expect(try Self.tileset.get().tile(z: 5, x: 4, y: 13) == nil)
        // Inland Bohemia, zoom 8: land over the whole tile, exterior rings only (the cells under the tile and its
        // buffer each give one).
        let inland = try Self.layers(z: 8, x: 139, y: 86)
        let land = try #require(inland["land"])
        let rings = try Self.parts(land.features[0])
        #expect(rings.allSatisfy { Self.doubleArea($0) > 0 })
        #expect(rings.reduce(0) { $0 + Self.doubleArea($1) } >= 2 * 4096 * 4096)
    }

    @Test func ringsAreOrientedAsTheSpecAsks() throws {
        // Every land and lake ring of the zoom-3 tiles: exteriors clockwise (positive area, y down), each polygon
        // starting with one; holes counter-clockwise after it. No ring is degenerate.
        let tileset = try Self.tileset.get()
        var exteriors = 0, holes = 0
        for (x, y) in tileset.candidateTiles(zoom: 3) {
            for name in ["land", "lakes"] {
                guard let layer = try Self.layers(z: 3, x: x, y: y)[name] else { continue }
                for feature in layer.features {
                    #expect(feature.type == 3)
                    let rings = try Self.parts(feature)
                    #expect(Self.doubleArea(rings[0]) > 0, "3/\(x)/\(y) \(name) starts with a hole")
                    for ring in rings {
                        let area = Self.doubleArea(ring)
                        #expect(ring.count >= 3 && area != 0)
                        if area > 0 { exteriors += 1 } else { holes += 1 }
                    }
                }
            }
        }
        #expect(exteriors > 1000)
        // Islands in lakes and lakes' own holes: a few in a hundred.
        #expect(holes > 0 && holes < exteriors / 10)
    }

    @Test func everyTileOfAZoomIsWithinTheGridAndNotEmpty() throws {
        let tileset = try Self.tileset.get()
        var tiles: [EncodedTile] = []
        let small = try BasemapTileset(file: tileset.file, zooms: 0...2)
        try small.encode(batchSize: 4) { tiles += $0 }
        #expect(tiles.filter { $0.z == 0 }.count == 1)
        #expect(tiles.filter { $0.z == 1 }.count == 4)
        #expect(tiles.allSatisfy { !$0.data.isEmpty && $0.x < 1 << $0.z && $0.y < 1 << $0.z })
        let metadata = small.metadata()
        #expect(metadata.vectorLayers.map(\.id) == ["land", "countries", "lakes", "places", "rivers", "states"])
        #expect(metadata.attribution == "Made with Natural Earth")
    }

    @Test func styleDrawsTheBasemapUnderTheMarkersInTheStaticColours() throws {
        var style = MapLibreStyle(tiles: .template("{z}/{x}/{y}.pbf", minimumZoom: 0, maximumZoom: 14))
        let bare = try style.jsonValue()
        guard case let .object(bareRoot) = bare, case let .array(bareLayers)? = bareRoot["layers"] else {
            Issue.record("no layers")
            return
        }
        #expect(bareLayers.count == 3)
        style.basemap = MapLibreStyle.Basemap(
            tiles: .template("basemap/{z}/{x}/{y}.pbf", minimumZoom: 0, maximumZoom: 8), colors: MapStyle(),
            glyphs: "glyphs/{fontstack}/{range}.pbf")
        guard case let .object(root) = try style.jsonValue(), case let .array(layers)? = root["layers"],
            case let .object(sources)? = root["sources"]
        else {
            Issue.record("no layers")
            return
        }
        let ids = layers.compactMap { layer -> String? in
            guard case let .object(object) = layer, case let .string(id)? = object["id"] else { return nil }
            return id
        }
        #expect(
            ids == [
                "background", "basemap-land", "basemap-lakes", "basemap-rivers", "basemap-states", "basemap-countries",
                "basemap-places", "markers", "clusters",
            ])
        #expect(sources["basemap"] != nil)
        #expect(root["glyphs"] == .string("http://localhost:8000/glyphs/{fontstack}/{range}.pbf"))
        let text = try style.jsonValue().jsonText
        // The static map's sea under everything, its land, and its names' font.
        #expect(text.contains(##""background-color":"#AAD3DF""##))
        #expect(text.contains(##""fill-color":"#F2EFE9""##))
        #expect(text.contains(#""text-font":["DejaVu Sans"]"#))
        #expect(text.contains(#""maxzoom":8"#))
    }

    @Test func corridorsAlongACutAreRemoved() {
        // Two squares joined by a corridor along y = 0, as a cut along that line leaves them: out along the edge from
        // (10, 0) to (30, 0) and back.
        let ring: [RingBridges.Point] = [
            (0, 0), (10, 0), (30, 0), (40, 0), (40, 10), (30, 10), (30, 0), (10, 0), (10, 10), (0, 10),
        ]
        let rings = RingBridges.split(ring)
        #expect(rings.count == 2)
        #expect(rings.allSatisfy { $0.count == 4 && BasemapTileset.doubleArea($0) == 200 })
        // In the ring's own order, whatever the process's hashing: each ring from the first edge left of it, the
        // ring first met first (the dictionary's order made the basemap's tiles differ from run to run).
        #expect(
            rings.map { $0.map { [$0.x, $0.y] } } == [
                [[0, 0], [10, 0], [10, 10], [0, 10]], [[30, 0], [40, 0], [40, 10], [30, 10]],
            ])
        // A ring without one comes back as it was.
        let square: [RingBridges.Point] = [(0, 0), (5, 0), (5, 5), (0, 5)]
        #expect(RingBridges.split(square).count == 1)
        #expect(RingBridges.split(square)[0].map(\.x) == [0, 5, 5, 0])
    }

    @Test func noTileOfZoom6HasACorridor() throws {
        // Along any horizontal or vertical line, no stretch of a land ring is run both ways.
        let tileset = try Self.tileset.get()
        for (x, y) in tileset.candidateTiles(zoom: 6).prefix(400) {
            guard let land = try Self.layers(z: 6, x: x, y: y)["land"] else { continue }
            for ring in try Self.parts(land.features[0]) {
                let converted = ring.map { (x: Int32($0.x), y: Int32($0.y)) }
                #expect(RingBridges.split(converted).count == 1, "6/\(x)/\(y)")
            }
        }
    }
}
