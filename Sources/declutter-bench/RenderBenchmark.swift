import DeclutterClustering
import DeclutterCommandLine
import DeclutterGeometry
import DeclutterMap
import DeclutterMapContent
import DeclutterPNG
import DeclutterPlacement
import DeclutterRender
import DeclutterServer
import DeclutterStyle
import DeclutterSupport
import DeclutterTesting
import DeclutterTileSources
import DeclutterTiles
import Foundation

/// Times one static map: 800×600 points, 200 markers, a 1000-vertex route, 12 tiles read from disk (a warm
/// cache), clustered, placed, drawn and encoded as PNG, in process, with one renderer kept across maps.
///
/// With `worldZoom`, the same markers and route over the embedded world basemap instead of tiles, centred on
/// `worldCenter` (by default Athens, a coast of many islands, the flat basemap's costly case) at that zoom.
///
/// With `pitch`, the same map tilted back by that pitch is drawn too, alternating with the flat one map by map, so
/// both are timed under the same load; the scene holds the tiles of both.
///
/// The scene is seeded and can be written out (`--scene DIR`) to time the whole process with `declutter render`.
struct RenderBenchmark {
    /// Maps timed; the median is reported.
    var runs: Int
    /// Where to write the scene's files, if anywhere.
    var sceneFolder: String?
    /// The zoom of a map over the embedded world basemap; nil times the tile map.
    var worldZoom: Double?
    /// The centre of the map over the embedded world basemap.
    var worldCenter = Self.athens
    /// The pitch of a tilted twin drawn alternately with the flat map; nil draws the flat map alone.
    var pitch: Double?

    /// One map's figures.
    struct Figures {
        var milliseconds: Double
        /// The part spent encoding the PNG.
        var encodeMilliseconds: Double
        var tiles: Int
        var views: Int
        var bytes: Int
    }

    struct Result {
        var flat: Figures
        /// The tilted twin's figures, and its pitch.
        var pitched: (pitch: Double, figures: Figures)?
        /// The zoom of the world-basemap map, nil for the tile map.
        var worldZoom: Double?
        var worldCenter: Coordinate
        var markers: Int

        var json: String {
            let basemap =
                worldZoom.map {
                    String(
                        format: ",\"basemap\":\"world\",\"zoom\":%g,\"center\":[%g,%g]", $0, worldCenter.longitude,
                        worldCenter.latitude)
                } ?? ""
            let tilted =
                pitched.map { pitch, figures in
                    String(
                        format:
                            ",\"pitch\":%g,\"ms_pitched\":%.2f,\"ms_png_pitched\":%.2f,\"tiles_pitched\":%d,\"views_shown_pitched\":%d,\"png_bytes_pitched\":%d,\"pitched_over_flat\":%.3f",
                        pitch, figures.milliseconds, figures.encodeMilliseconds, figures.tiles, figures.views,
                        figures.bytes,
                        figures.milliseconds / flat.milliseconds)
                } ?? ""
            return String(
                format:
                    "{\"area\":\"render\",\"ms\":%.2f,\"ms_png\":%.2f,\"tiles\":%d%@,\"markers\":%d,\"views_shown\":%d,\"png_bytes\":%d%@}",
                flat.milliseconds, flat.encodeMilliseconds, flat.tiles, basemap, markers, flat.views, flat.bytes, tilted
            )
        }

        var text: String {
            func basemap(_ figures: Figures) -> String {
                worldZoom.map {
                    String(
                        format: "the world basemap at zoom %g centred on %g,%g", $0, worldCenter.latitude,
                        worldCenter.longitude)
                }
                    ?? "\(figures.tiles) tiles"
            }
            var text = String(
                format:
                    "render: %.2f ms for an 800×600 map of %d markers (%d views shown), a 1000-vertex route and %@ (PNG: %.2f ms, %d bytes)",
                flat.milliseconds, markers, flat.views, basemap(flat), flat.encodeMilliseconds, flat.bytes)
            if let (pitch, figures) = pitched {
                text += String(
                    format:
                        "\n        %.2f ms for the same map at pitch %g (%d views shown, %@; PNG: %.2f ms, %d bytes): %.2f× the flat map's time",
                    figures.milliseconds, pitch, figures.views, basemap(figures), figures.encodeMilliseconds,
                    figures.bytes,
                    figures.milliseconds / flat.milliseconds)
            }
            return text
        }
    }

    /// The camera: Berlin at zoom 13, placed so that exactly 4×3 tiles cover the map.
    static func camera() throws -> MapCamera {
        let zoom = 13.0, size = MapCamera.tileSize * pow(2, zoom)
        // The top-left corner 10 points into tile (4400, 2686); the map's centre is 400, 300 points further.
        let centerX = (4400 * 256 + 10 + 400) / size, centerY = (2686 * 256 + 10 + 300) / size
        return try MapCamera(
            center: Coordinate(
                longitude: WebMercator.longitude(x: centerX), latitude: WebMercator.latitude(y: centerY)),
            zoom: zoom, width: 800, height: 600)
    }

    /// The world-basemap map's default centre.
    static let athens = Coordinate(longitude: 23.7, latitude: 37.95)

    /// The camera of the world-basemap map: `center` at `zoom`.
    static func worldCamera(center: Coordinate, zoom: Double) throws -> MapCamera {
        try MapCamera(center: center, zoom: zoom, width: 800, height: 600)
    }

    /// Writes the scene: `tiles/{z}/{x}/{y}.png` (unless `tiles` is false) for the camera and any `tiltedTo` pitch,
    /// `points.geojson`, `route.geojson`.
    static func writeScene(to folder: URL, camera: MapCamera, tiles: Bool = true, tiltedTo pitch: Double? = nil) throws
        -> (points: [ClusterPoint], route: [Coordinate])
    {
        var random = SeededRandom(seed: 42)
        let categories = ["blue", "orange", "green", "vermilion", "sky", "purple", "grey"]
        var points: [ClusterPoint] = []
        var features: [String] = []
        for index in 0..<200 {
            let coordinate = camera.coordinate(atX: 20 + random.next() * 760, y: 20 + random.next() * 560)
            let category = categories[Int(random.next() * Double(categories.count)) % categories.count]
            points.append(
                ClusterPoint(
                    longitude: coordinate.longitude, latitude: coordinate.latitude,
                    properties: JSONObject([("kind", .string(category))]), id: .number(Double(index)),
                    category: category))
            features.append(
                #"{"type":"Feature","id":\#(index),"properties":{"kind":"\#(category)"},"geometry":{"type":"Point","coordinates":[\#(coordinate.longitude),\#(coordinate.latitude)]}}"#
            )
        }
        var route: [Coordinate] = []
        var x = 60.0, y = 540.0
        for step in 0..<1000 {
            // A wandering line from the bottom-left towards the top-right.
            x += 0.7 + (random.next() - 0.5) * 2
            y -= 0.48 + (random.next() - 0.5) * 2 + sin(Double(step) / 40) * 0.8
            route.append(camera.coordinate(atX: x, y: y))
        }
        let cameras = try [camera] + (pitch.map { [try tilted(camera, to: $0)] } ?? [])
        var keys: [TileKey] = [], seen = Set<TileKey>()
        for camera in cameras where tiles {
            let plan = try TilePlan(camera: camera, scale: 1, tilePixelSize: 256, zoomRange: 0...22, limit: 256)
            keys += plan.tiles.map(\.key).filter { seen.insert($0).inserted }
        }
        var files: [(String, Data)] = [
            (
                "points.geojson",
                Data((#"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}\n").utf8)
            ),
            (
                "route.geojson",
                Data(
                    (#"{"type":"LineString","coordinates":["#
                        + route.map { "[\($0.longitude),\($0.latitude)]" }.joined(separator: ",") + "]}\n").utf8)
            ),
        ]
        for key in keys {
            files.append(("tiles/\(key.z)/\(key.x)/\(key.y).png", try syntheticTile(key, random: &random)))
        }
        for (name, data) in files {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileSystem.writeAtomically(data, to: url)
        }
        return (points, route)
    }

    /// The camera tilted back by `pitch`.
    static func tilted(_ camera: MapCamera, to pitch: Double) throws -> MapCamera {
        try MapCamera(
            center: camera.center, zoom: camera.zoom, bearing: camera.bearing, pitch: pitch, width: camera.width,
            height: camera.height)
    }

    /// A street-map-like tile: a pale ground, blocks and a few roads, so decoding costs what a real tile costs.
    static func syntheticTile(_ key: TileKey, random: inout SeededRandom) throws -> Data {
        let canvas = try Canvas(width: 256, height: 256, format: .png)
        let context = canvas.context
        context.paint(RGBAColor(hex: "#F2EFE9") ?? .white)
        for _ in 0..<40 {
            context.newPath()
            context.rectangle(
                x: random.next() * 240, y: random.next() * 240, width: 6 + random.next() * 30,
                height: 6 + random.next() * 30)
            context.fill(RGBAColor(red: 0.85, green: 0.82 + random.next() * 0.08, blue: 0.78, alpha: 1))
        }
        for _ in 0..<6 {
            context.newPath()
            context.move(toX: random.next() * 256, y: 0)
            context.line(toX: random.next() * 256, y: 256)
            context.strokeRound(.white, width: 3 + random.next() * 4)
        }
        return try canvas.data(encoder: PNGEncoder(level: 6, filter: .adaptive))
    }

    func run() throws -> Result {
        let camera = try worldZoom.map { try Self.worldCamera(center: worldCenter, zoom: $0) } ?? Self.camera()
        let folder =
            sceneFolder.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "declutter-bench-render-\(getpid())", isDirectory: true)
        defer { if sceneFolder == nil { try? FileManager.default.removeItem(at: folder) } }
        let (points, route) = try Self.writeScene(to: folder, camera: camera, tiles: worldZoom == nil, tiltedTo: pitch)
        let style = try StyleLocator.load("default")
        var job = MapDescription(points: points, style: style)
        job.width = camera.width
        job.height = camera.height
        job.framing = .centered(camera.center, zoom: camera.zoom)
        job.basemap =
            worldZoom == nil
            ? .tiles(try DirectoryTileSource(path: folder.appendingPathComponent("tiles").path)) : .world
        job.overlays = [MapOverlay(.route(route), paint: style.map.route, casing: style.map.routeCasing)]
        var jobs = [job]
        if let pitch {
            job.pitch = pitch
            jobs.append(job)
        }
        // One renderer for every map, as a server keeps one: fonts loaded and labels shaped once.
        let renderer = try StaticMapRenderer(style: style)
        var times = [[Double]](repeating: [], count: jobs.count), encodeTimes = times
        var last = [DrawnMap?](repeating: nil, count: jobs.count), bytes = [Int](repeating: 0, count: jobs.count)
        for _ in 0..<runs {
            // Flat and tilted in turn, so that both see the same load.
            for (index, job) in jobs.enumerated() {
                // Everything a request would do: index the points, place, read and decode tiles, draw, encode.
                let start = DispatchTime.now().uptimeNanoseconds
                let output = try job.draw(format: .png, renderer: renderer)
                let drawn = DispatchTime.now().uptimeNanoseconds
                bytes[index] = try output.canvas.data().count
                let end = DispatchTime.now().uptimeNanoseconds
                times[index].append(Double(end - start) / 1e6)
                encodeTimes[index].append(Double(end - drawn) / 1e6)
                last[index] = output
            }
        }
        let cameras = try [camera] + (pitch.map { [try Self.tilted(camera, to: $0)] } ?? [])
        let figures = try jobs.indices.map { index -> Figures in
            let sorted = times[index].sorted(), encodeSorted = encodeTimes[index].sorted()
            let tiles =
                worldZoom == nil
                ? try TilePlan(camera: cameras[index], scale: 1, tilePixelSize: 256, zoomRange: 0...22, limit: 256)
                    .tiles.count : 0
            return Figures(
                milliseconds: sorted[sorted.count / 2], encodeMilliseconds: encodeSorted[encodeSorted.count / 2],
                tiles: tiles,
                views: last[index]?.annotations.filter(\.visible).count ?? 0, bytes: bytes[index])
        }
        return Result(
            flat: figures[0], pitched: pitch.map { ($0, figures[1]) }, worldZoom: worldZoom, worldCenter: worldCenter,
            markers: points.count)
    }
}
