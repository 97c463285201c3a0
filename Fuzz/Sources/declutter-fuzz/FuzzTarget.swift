import DeclutterClustering
import DeclutterGeometry
import DeclutterInput
import DeclutterMap
import DeclutterMapContent
import DeclutterPNG
import DeclutterPlacement
import DeclutterRender
import DeclutterStaticAPI
import DeclutterStyle
import DeclutterSupport
import DeclutterTesting
import DeclutterTileSources
import DeclutterTiles
import Foundation

/// One parser, or the drawing of a map, fed by libFuzzer: each reads the bytes as the program would read a file and
/// ignores what it throws, since refusing bad input with an error is the parser's job; a crash, a hang, a leak or a
/// sanitizer report is a finding.
enum FuzzTarget: String, CaseIterable {
    case png, json, geojson, csv, plist, style, scene, polyline, mbtiles, staticmap, staticbody, camera, pmtiles,
        screenshot

    /// The target named by `DECLUTTER_FUZZ_TARGET`, read once: libFuzzer passes no argument of its own to the harness.
    static let selected: FuzzTarget? = ProcessInfo.processInfo.environment["DECLUTTER_FUZZ_TARGET"].flatMap(FuzzTarget.init)

    /// A 1×1 PNG, the glyph image every path in a fuzzed style resolves to, so that styles get past glyph loading.
    /// Bytes rather than a static `Data`, whose storage LeakSanitizer cannot see referenced from a global and would
    /// report as leaked.
    static let glyph: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
        0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89, 0x00, 0x00, 0x00,
        0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0xDA, 0x63, 0x64, 0xF8, 0xCF, 0x50, 0x0F, 0x00, 0x03, 0x86, 0x01, 0x80,
        0x5A, 0x34, 0x7D, 0x6B, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]

    /// The file the `mbtiles` target writes each input to, as SQLite opens only files; one per process, as libFuzzer's
    /// `-jobs`/`-fork` modes run several.
    static let databasePath = FileManager.default.temporaryDirectory
        .appendingPathComponent("declutter-fuzz-\(ProcessInfo.processInfo.processIdentifier).mbtiles").path

    /// The file the `pmtiles` target writes each input to, as `serve --tileset` reads archives by range from a file.
    static let archivePath = FileManager.default.temporaryDirectory
        .appendingPathComponent("declutter-fuzz-\(ProcessInfo.processInfo.processIdentifier).pmtiles").path

    /// The `camera` target's style, decoded once: decoding it and its glyph images cost as much as drawing a small map.
    /// Each input still gets a renderer of its own, whose caches fill as it draws.
    static let cameraStyle = try? BundledFiles.style(named: "default")

    /// Tight limits for the `staticmap` target, so that short inputs reach every limit's check too.
    static let tightStaticMapLimits = StaticMapLimits(maximumURLBytes: 512, maximumWidth: 64, maximumHeight: 64, maximumScale: 2, maximumOverlays: 3,
                                                      maximumPoints: 4, maximumPathVertices: 8, maximumGeoJSONNesting: 6)

    /// Runs the parser on one input.
    func run(_ data: Data) {
        switch self {
        case .png:
            // See ChunkChecksums.
            _ = try? PNGDecoder.decode(ChunkChecksums.repaired(data))
        case .screenshot:
            // JPEG and WebP through their libraries, PNG through Declutter's decoder, as `declutter diff` reads a
            // screenshot (the pixel limit held low, so that a header's size is checked before the buffer it sizes).
            _ = try? RGBAImage(encoded: data, name: "fuzz", pixelLimit: 1 << 20)
        case .json:
            _ = try? JSONParser.parse(data)
        case .geojson:
            _ = try? PointReader(categoryProperty: "kind", identifierProperty: "group", skipInvalid: data.first.map { $0 & 1 == 0 } ?? false,
                                 format: .geojson).read(data, name: "fuzz.geojson")
        case .csv:
            _ = try? PointReader(categoryProperty: "kind", skipInvalid: data.first.map { $0 & 1 == 0 } ?? false,
                                 format: .csv).read(data, name: "fuzz.csv")
        case .plist:
            _ = try? PointReader(format: .plist).read(data, name: "fuzz.plist")
        case .style:
            _ = try? MarkerStyle.decode(data, file: "fuzz.json", glyphFile: { _ in Data(Self.glyph) })
        case .scene:
            // Decoded and placed, as `declutter place` does.
            if let scene = try? JSONDecoder().decode(PlacementScene.self, from: data) { _ = PlacementEngine.place(scene) }
        case .polyline:
            // The first byte picks the precision (5 or 6 as routing APIs use, 0 and 8 out of range); the rest is the line.
            let precision = [5, 6, 0, 8][Int(data.first ?? 0) & 3]
            _ = try? Polyline.decode(String(decoding: data.dropFirst(), as: UTF8.self), precision: precision)
        case .staticmap:
            // The text before the first '?' is the path, the rest `key=value` pairs split on '&', as a server hands
            // them over. A URL that parses must write back (urlPath, queryItems) to the same request: a mismatch is a
            // finding too. The URL written back may be longer (3-digit colours become 6), so its length is not checked.
            let text = String(decoding: data, as: UTF8.self)
            let path = String(text.prefix { $0 != "?" })
            let query = text.dropFirst(path.count + 1).split(separator: "&").map { pair in
                (String(pair.prefix { $0 != "=" }), String(pair.drop { $0 != "=" }.dropFirst()))
            }
            _ = try? StaticMapRequest(path: path, query: query, limits: Self.tightStaticMapLimits)
            guard let request = try? StaticMapRequest(path: path, query: query) else { return }
            var unlimitedURL = StaticMapLimits()
            unlimitedURL.maximumURLBytes = .max
            do {
                let again = try StaticMapRequest(path: request.urlPath, query: request.queryItems, limits: unlimitedURL)
                precondition(again == request, "\(path) wrote back as \(request.urlPath), which reads as another request")
            } catch {
                preconditionFailure("\(path) wrote back as \(request.urlPath), which is refused: \(error)")
            }
        case .staticbody:
            // `declutter serve`'s POST /static body, with default and tight limits; a body read must give a request
            // that its own URL reads back, as the `staticmap` target holds URLs to.
            _ = try? StaticMapBody(data, limits: Self.tightStaticMapLimits)
            guard let body = try? StaticMapBody(data, limits: StaticMapLimits()) else { return }
            var unlimitedURL = StaticMapLimits()
            unlimitedURL.maximumURLBytes = .max
            do {
                let again = try StaticMapRequest(path: body.request.urlPath, query: body.request.queryItems, limits: unlimitedURL)
                precondition(again == body.request, "the body's request wrote back as \(body.request.urlPath), which reads as another request")
            } catch let error as StaticMapRequestError where error.field == "camera" && body.request.camera == .auto && !body.points.isEmpty {
                // A URL has no points for `auto` to fit, so without overlays it is refused; the body fitted its points.
            } catch {
                preconditionFailure("the body's request wrote back as \(body.request.urlPath), which is refused: \(error)")
            }
        case .camera:
            // Numbers between commas, semicolons, spaces or line breaks: LAT LON ZOOM BEARING PITCH WIDTH HEIGHT (the
            // size held to 1…64 points, so that runs stay quick), FLAGS (1: over tiles instead of the embedded basemap,
            // 2: at scale 2), then LAT LON pairs: markers clustered and placed as a map's, and a route through them. A
            // camera out of range is refused by MapCamera; whatever it takes must draw.
            let numbers = String(decoding: data, as: UTF8.self).split(whereSeparator: { ",; \n".contains($0) }).compactMap { Double($0) }
            guard numbers.count >= 7, numbers[5].isFinite, numbers[6].isFinite else { return }
            let flags = numbers.count > 7 && numbers[7].isFinite && (0..<4).contains(numbers[7]) ? Int(numbers[7]) : 0
            guard let camera = try? MapCamera(center: Coordinate(longitude: numbers[1], latitude: numbers[0]), zoom: numbers[2], bearing: numbers[3],
                                              pitch: numbers[4], width: min(64, max(1, numbers[5])), height: min(64, max(1, numbers[6]))),
                  let style = Self.cameraStyle, let renderer = try? StaticMapRenderer(style: style) else { return }
            let coordinates = stride(from: 8, to: numbers.count - 1, by: 2).compactMap { index -> Coordinate? in
                abs(numbers[index]) <= WebMercator.maximumLatitude && abs(numbers[index + 1]) <= 180
                    ? Coordinate(longitude: numbers[index + 1], latitude: numbers[index]) : nil
            }
            let points = coordinates.enumerated().map { index, coordinate in
                ClusterPoint(longitude: coordinate.longitude, latitude: coordinate.latitude, id: .number(Double(index)),
                             category: style.categories[index % style.categories.count].name)
            }
            // Drawn by the map pipeline as `render` draws it: tiles fetched, points clustered and placed, furniture.
            var map = MapDescription(points: points, style: style)
            map.framing = .centered(camera.center, zoom: camera.zoom)
            (map.bearing, map.pitch, map.width, map.height) = (camera.bearing, camera.pitch, camera.width, camera.height)
            map.scale = flags & 2 == 0 ? 1 : 2
            map.basemap = flags & 1 == 0 ? .world : .tiles(GlyphTiles())
            map.overlays = coordinates.count < 2 ? [] : [MapOverlay(.route(coordinates), paint: style.map.route)]
            _ = try? map.draw(format: .png, renderer: renderer)
        case .mbtiles:
            // An input starting "SQLite format 3" is a whole file; any other is metadata lines (MetadataDatabase).
            if data.starts(with: Array("SQLite format 3".utf8)) {
                guard FileManager.default.createFile(atPath: Self.databasePath, contents: data) else { return }
            } else {
                guard MetadataDatabase.write(String(decoding: data, as: UTF8.self), to: Self.databasePath) else { return }
            }
            defer { try? FileManager.default.removeItem(atPath: Self.databasePath) }
            guard let source = try? MBTilesSource(path: Self.databasePath) else { return }
            _ = try? source.fetch([TileKey(z: source.zoomRange.lowerBound, x: 0, y: 0)])
        case .pmtiles:
            // An archive as `serve --tileset` opens it: header, root directory, metadata; then every tile of zooms 0–3
            // looked up through the directories and leaves, and the TileJSON.
            guard FileManager.default.createFile(atPath: Self.archivePath, contents: data) else { return }
            defer { try? FileManager.default.removeItem(atPath: Self.archivePath) }
            guard let archive = try? TilesetArchive(path: Self.archivePath) else { return }
            for z in 0...3 {
                for x in 0..<(1 << z) {
                    for y in 0..<(1 << z) { _ = try? archive.tile(z: z, x: x, y: y) }
                }
            }
            _ = archive.tileJSON(tiles: ["http://127.0.0.1/{z}/{x}/{y}.mvt"])
        }
    }
}
