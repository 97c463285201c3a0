import DeclutterGeometry
import DeclutterMapContent
import DeclutterStyle
import Foundation
import Testing

@testable import DeclutterRender

/// Pitched maps: tiles sampled in perspective at each row's zoom, exactly where the camera projects the ground, and
/// lines cut before the camera.
@Suite struct PitchedDrawingTests {
    /// The tiles a map at `camera` needs (256 px, zooms 0…18), each drawn by a function of its key, as a source would
    /// hand them over.
    static func patternTiles(_ camera: MapCamera, format: OutputFormat = .png, tile: (TileKey) throws -> Data) throws
        -> RasterTiles
    {
        let plan = try TilePlan(
            camera: camera, scale: StaticMapRenderer.tileScale(camera: camera, scale: 1, format: format),
            tilePixelSize: 256,
            zoomRange: 0...18, limit: 256)
        var images: [TileKey: Data] = [:]
        for key in Set(plan.tiles.map(\.key)) { images[key] = try tile(key) }
        return RasterTiles(plan: plan, images: images, failures: [:], source: "pattern tiles", attribution: nil)
    }

    /// San Francisco at zoom 13, tilted back 60°: the top row shows the ground at 0.4226 of the centre's scale, the
    /// bottom row at 1.5774.
    func camera(pitch: Double = 60, bearing: Double = 0) throws -> MapCamera {
        try MapCamera(
            center: Coordinate(longitude: -122.42, latitude: 37.78), zoom: 13, bearing: bearing, pitch: pitch,
            width: 800, height: 600)
    }

    func render(
        _ camera: MapCamera, tiles: @escaping @Sendable (TileKey) throws -> Data, overlays: [MapOverlay] = [],
        format: OutputFormat = .png
    ) throws -> Canvas {
        let map = StaticMap(
            camera: camera, basemap: .tiles(try Self.patternTiles(camera, format: format, tile: tiles)),
            overlays: overlays)
        return try StaticMapRenderer(style: bundledStyle("default")).render(map, format: format).canvas
    }

    @Test func farRowsComeFromLowerZooms() throws {
        let colours = [
            12: RGBAColor(red: 1, green: 0, blue: 0), 13: RGBAColor(red: 0, green: 1, blue: 0),
            14: RGBAColor(red: 0, green: 0, blue: 1),
        ]
        let canvas = try render(camera(), tiles: { try solidTile(colours[$0.z] ?? .white) })
        // The zoom of a row is 13 + log2(its scale), rounded: 12 above the row whose scale is 2^−0.5 (y = 147.8). As
        // MapLibre does, rows nearer than the centre keep its zoom, though their scale reaches 1.58.
        for (y, expected) in [
            (0, [255, 0, 0]), (147, [255, 0, 0]), (148, [0, 255, 0]), (300, [0, 255, 0]), (514, [0, 255, 0]),
            (515, [0, 255, 0]), (599, [0, 255, 0]),
        ] {
            #expect(Array(canvas.surface.rgba(x: 400, y: y).prefix(3)) == expected.map(UInt8.init), "row \(y)")
        }
        let plan = try TilePlan(camera: camera(), scale: 1, tilePixelSize: 256, zoomRange: 0...18, limit: 256)
        #expect(plan.zoom == 13)
        #expect(Set(plan.tiles.map(\.key.z)) == [12, 13])
    }

    @Test func tileEdgesLandWhereTheCameraProjectsThem() throws {
        // Each tile black on its western half, white on its eastern: a tile's middle is a black-to-white edge.
        let half = try { () -> Data in
            let canvas = try Canvas(width: 256, height: 256, format: .png)
            canvas.context.paint(.white)
            canvas.context.newPath()
            canvas.context.rectangle(x: 0, y: 0, width: 128, height: 256)
            canvas.context.fill(RGBAColor(red: 0, green: 0, blue: 0))
            return try canvas.data()
        }()
        for pitch in [45.0, 60] {
            let camera = try camera(pitch: pitch), canvas = try render(camera, tiles: { _ in half })
            let projection = camera.projection
            var edges = 0
            for row in [20, 150, 300, 450, 590] {
                let ground = camera.worldPoint(atX: 400, y: Double(row) + 0.5)
                let zoom = try #require(
                    PitchedRow.lines(row: row, camera: camera, scale: 1, tilePixelSize: 256, zoomRange: 0...18).first
                ).zoom
                let tiles = Double(1 << zoom), column = (ground.x * tiles).rounded(.down)
                for middle in [(column - 1 + 0.5) / tiles, (column + 0.5) / tiles, (column + 1.5) / tiles] {
                    let expected = projection.point(worldX: middle, worldY: ground.y).x
                    guard expected > 3, expected < 797 else { continue }
                    // Where the grey level crosses half way, between the two pixels around it.
                    let left = Int((expected - 0.5).rounded(.down)), a = Double(canvas.surface.rgba(x: left, y: row)[0])
                    let b = Double(canvas.surface.rgba(x: left + 1, y: row)[0])
                    #expect(a < 127.5 && b >= 127.5, "pitch \(pitch), row \(row): \(a), \(b) around \(expected)")
                    let crossing = Double(left) + 0.5 + (127.5 - a) / (b - a)
                    #expect(
                        abs(crossing - expected) < 0.2,
                        "pitch \(pitch), row \(row): edge at \(crossing), projected at \(expected)")
                    edges += 1
                }
            }
            #expect(edges >= 10)
        }
    }

    @Test func aRouteRunningBehindTheCameraIsCutBeforeIt() throws {
        let camera = try camera(), white = try solidTile(.white)
        // From the centre to 50 km south: far behind the camera, which stands 5.7 km south of the centre at zoom 13.
        let route = MapOverlay(
            .route([camera.center, Coordinate(longitude: -122.42, latitude: 37.33)]),
            paint: ShapePaint(stroke: RGBAColor(red: 1, green: 0, blue: 0), width: 6))
        let canvas = try render(camera, tiles: { _ in white }, overlays: [route])
        func isRed(_ x: Int, _ y: Int) -> Bool {
            let pixel = canvas.surface.rgba(x: x, y: y)
            return pixel[0] > 200 && pixel[1] < 60
        }
        // Down the middle from the centre to the bottom edge, and nowhere above the centre.
        #expect([305, 400, 500, 599].allSatisfy { isRed(400, $0) })
        #expect(!(0..<295).contains { y in stride(from: 0, to: 800, by: 4).contains { isRed($0, y) } })
    }

    @Test func theNearCutKeepsWhatLiesBeforeTheCamera() throws {
        let clip = try #require(NearClip(Perspective(pitch: 60, width: 800, height: 600)))
        // The bottom edge seen three heights down: 300 + 1500·900 / (900·cos 60° + 1500·sin 60°) = 1071.853.
        #expect(abs(clip.limit - 1071.8531) < 1e-3)
        #expect(NearClip(Perspective(pitch: 0, width: 800, height: 600)) == nil)
        let pieces = clip.polyline([(0, 0), (0, 2000), (100, 2000), (100, 0), (200, 0)])
        #expect(
            pieces.map { $0.map { [$0.x, ($0.y * 1000).rounded() / 1000] } } == [
                [[0, 0], [0, 1071.853]], [[100, 1071.853], [100, 0], [200, 0]],
            ])
        let ring = clip.ring([(0, 0), (100, 0), (100, 2000), (0, 2000)])
        #expect(
            ring.map { [$0.x, ($0.y * 1000).rounded() / 1000] } == [
                [0, 1071.853], [0, 0], [100, 0], [100, 1071.853],
            ])
    }

    @Test func aLowZoomMapSeesPastTheWorldsTopEdge() throws {
        // At zoom 1.5 the far rows of a 60° map lie north of 85.05°N, the Mercator world's edge, where the basemap
        // has no cells: the sea's colour there, the world below it.
        let camera = try MapCamera(
            center: Coordinate(longitude: 10, latitude: 60), zoom: 1.5, pitch: 60, width: 600, height: 400)
        #expect(camera.worldPoint(atX: 300, y: 0).y < 0)
        let canvas = try StaticMapRenderer(style: bundledStyle("default")).render(
            StaticMap(camera: camera, basemap: .world, attribution: ""),
            format: .png
        ).canvas
        for x in [0, 300, 599] {
            #expect(Array(canvas.surface.rgba(x: x, y: 0).prefix(3)) == [170, 211, 223], "column \(x)")
        }
        let land = stride(from: 0, to: 600, by: 5).filter {
            Array(canvas.surface.rgba(x: $0, y: 300).prefix(3)) != [170, 211, 223]
        }
        #expect(land.count > 20)
    }

    @Test func everyCameraInRangeIsDrawn() throws {
        // 120 cameras spread over the ranges by Weyl sequences, so they repeat: zoom 0–22 weighted low, pitch 0–60,
        // north up or any bearing, centres weighted towards the Mercator edges and across the antimeridian, sizes down
        // to one point. Every other one is over the embedded basemap, the rest over tiles one colour a zoom: the
        // centre row always shows ground at the camera's own tile zoom, so the centre pixel is that zoom's colour.
        @Sendable func colour(_ zoom: Int) -> RGBAColor {
            RGBAColor(red: Double(zoom) / 22, green: 1 - Double(zoom) / 22, blue: 0.5)
        }
        let renderer = try StaticMapRenderer(style: bundledStyle("default"))
        func spread(_ index: Int, _ step: Double) -> Double {
            (Double(index) * step).truncatingRemainder(dividingBy: 1)
        }
        for index in 0..<120 {
            let center = Coordinate(
                longitude: 360 * spread(index, 0.7548776662) - 180,
                latitude: WebMercator.maximumLatitude * cbrt(2 * spread(index, 0.5698402910) - 1))
            let camera = try MapCamera(
                center: center,
                zoom: 22 * pow(spread(index, 0.6180339887), 2),
                bearing: index % 3 == 0 ? 0 : 360 * spread(index, 0.4142135624),
                pitch: index % 5 == 0 ? 0 : 60 * spread(index, 0.7320508076).squareRoot(),
                width: (1 + 159 * spread(index, 0.2360679775)).rounded(),
                height: (1 + 119 * spread(index, 0.3166247904)).rounded())
            let basemap: Basemap =
                index.isMultiple(of: 2) ? .world : .tiles(try Self.patternTiles(camera) { try solidTile(colour($0.z)) })
            let canvas = try renderer.render(StaticMap(camera: camera, basemap: basemap, attribution: ""), format: .png)
                .canvas
            #expect(
                canvas.surface.pixelWidth == Int(camera.width) && canvas.surface.pixelHeight == Int(camera.height),
                "camera \(index)")
            guard !index.isMultiple(of: 2) else { continue }
            let zoom = try TilePlan(camera: camera, scale: 1, tilePixelSize: 256, zoomRange: 0...18, limit: 256).zoom
            let expected = colour(zoom),
                pixel = canvas.surface.rgba(x: Int(camera.width / 2), y: Int(camera.height / 2))
            let channels = [expected.red, expected.green, expected.blue].map { Int(($0 * 255).rounded()) }
            #expect(
                zip(pixel.prefix(3), channels).allSatisfy { abs(Int($0) - $1) <= 1 },
                "camera \(index): \(pixel) for zoom \(zoom)")
        }
    }

    @Test func tooManyTilesAreRefusedBeforeFetching() throws {
        let plan = try TilePlan(camera: camera(), scale: 1, tilePixelSize: 256, zoomRange: 0...18, limit: 256)
        #expect(throws: TileError.tooManyTiles(needed: plan.tiles.count, limit: 10)) {
            try TilePlan(camera: camera(), scale: 1, tilePixelSize: 256, zoomRange: 0...18, limit: 10)
        }
    }

    /// A pitched map's tiles are sampled into one image; a flat map's are drawn into one too, since a viewer smooths
    /// the edges of images placed side by side on their own, and a faint line showed along every tile edge.
    @Test func vectorMapsEmbedTheirTilesAsOneImage() throws {
        let white = try solidTile(.white)
        let svg = String(decoding: try render(camera(), tiles: { _ in white }, format: .svg).data(), as: UTF8.self)
        #expect(svg.components(separatedBy: "<image").count - 1 == 1)
        let plan = try TilePlan(camera: camera(pitch: 0), scale: 2, tilePixelSize: 256, zoomRange: 0...18, limit: 256)
        #expect(Set(plan.tiles.map(\.key)).count > 1)
        for format in [OutputFormat.svg, .pdf] {
            let flat = try render(camera(pitch: 0), tiles: { _ in white }, format: format).data()
            let text = String(decoding: flat, as: UTF8.self)
            #expect(text.components(separatedBy: format == .svg ? "<image" : "/Subtype /Image").count - 1 == 1)
        }
    }
}
