import ArgumentParser
import DeclutterClustering
import DeclutterCommandLine
import DeclutterGeometry
import DeclutterInput
import DeclutterMap
import DeclutterMapContent
import DeclutterPNG
import DeclutterPlacement
import DeclutterRender
import DeclutterServer
import DeclutterStaticAPI
import DeclutterStyle
import DeclutterSupport
import DeclutterTesting
import DeclutterTileSources
import DeclutterTiles
import Foundation

/// `declutter render`: a static map of clustered, placed markers over a basemap, with routes and overlays.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract:
            "Draw a static map: clustered and placed markers over a basemap, with routes and overlays, as PNG, SVG or PDF.",
        discussion: """
            The camera is --center and --zoom, or else fitted to the data: a TANDm plist's own region, or the points and overlays with --padding.

            The basemap is --tiles (an http(s) URL template, a folder of {z}/{x}/{y}.png tiles, a path template, or an .mbtiles file), else the embedded world map (made with Natural Earth; detail to zoom 10, the same land and water above).

            A fitted map keeps every marker whole inside --padding; a map at --center and --zoom may cut a marker at its edge, as MapKit does. Markers keep clear of the legend, the compass, the scale bar and the attribution.

            Examples (declutter demo --write-examples writes their inputs):
              declutter demo --write-examples Examples
              declutter render --input Examples/tandm.plist --scale 2 --output tandm.png
              declutter render --input Examples/places.csv --category kind --legend \\
                --output europe.svg
              declutter render --input - --format csv --lat lat --lon lon \\
                --output places.png < Examples/places.csv
              declutter render --input Examples/stops.geojson --category kind \\
                --route Examples/route.geojson --scale-bar --layout stops.json \\
                --output stops.png
              declutter render --input Examples/airports.csv --category country \\
                --colors 10 --legend --output airports.png
            """)

    @Option(
        help: ArgumentHelp(
            "Points: .geojson/.json, .csv/.tsv or .plist (the TANDm sample's format); - reads standard input.",
            valueName: "file"))
    var input: String

    @OptionGroup var inputOptions: PointInputOptions

    @Flag(
        help:
            "Count and skip points with invalid coordinates or fields, with one warning, instead of failing on the first."
    )
    var skipInvalid = false

    @Option(
        help: ArgumentHelp(
            "A style file or bundled style (tandm, default, airports); default: tandm for a .plist, else default.",
            valueName: "file"))
    var style: String?

    @Option(
        help: ArgumentHelp(
            "The property whose values colour the points: the style's categories where they are its names (bicycle, blue), else the style's colours go to the values with the most points on the map and the rest share \"other\" (see --colors); default: every point in the style's first category.",
            valueName: "prop"))
    var category: String?

    @Option(
        help: ArgumentHelp(
            "How many values of --category get colours of their own, the rest sharing \"other\": up to the style's colours, or up to \(ColorBlindPalette.colors.count) from a colour-blind-safe palette (default: as many as the style has colours).",
            valueName: "n"))
    var colors: Int?

    @Option(
        help: ArgumentHelp(
            "Values of --category that get colours of their own first, in this order; without --colors only they do, the rest sharing \"other\".",
            valueName: "value,…"))
    var colorsFor: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Map size in points, WIDTHxHEIGHT, each 1 or more (at most 16384 px at the scale).", valueName: "WxH"))
    var size = SizeArgument(width: 800, height: 600)

    @Option(help: "Pixels per point for PNG output: 1, 2 or 3.")
    var scale: Int = 1

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The centre of the map (with --zoom), LAT,LON in degrees: -85.05 ≤ LAT ≤ 85.05 (Web Mercator's edge), -180 ≤ LON ≤ 180.",
            valueName: "lat,lon"), transform: CoordinateArgument.parse)
    var center: CoordinateArgument?

    @Option(parsing: .unconditional, help: "The zoom, 0…22, fractions allowed.")
    var zoom: Double?

    @Option(parsing: .unconditional, help: "Degrees clockwise from north at the top of the map.")
    var bearing: Double = 0

    @Option(
        parsing: .unconditional,
        help:
            "Degrees the camera leans back from looking straight down, 0…60, in perspective; markers stay upright. A fitted map is fitted as the tilted camera shows the data."
    )
    var pitch: Double = 0

    @Option(
        help: ArgumentHelp(
            "Draw the maps a gesture makes side by side in one PNG strip: a JSON list of steps, each {\"pinch\": SCALE} or {\"pan\": {\"location\": [X, Y], \"translation\": [DX, DY]}}, applied in turn from the map's camera (the first frame).",
            valueName: "steps.json"))
    var frames: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Points kept free at each edge when the map is fitted to the data (default: 40, and a quarter of the shorter side on a map under 160 pt).",
            valueName: "points"))
    var padding: Double?

    @Option(parsing: .unconditional, help: "The highest zoom a fitted map takes.")
    var maxZoom: Double = 17

    @Option(
        help: ArgumentHelp(
            "Raster tiles: an http(s) URL template, a folder or path template, or an .mbtiles file.",
            valueName: "source"))
    var tiles: String?

    @Option(help: "Tile images' size in pixels: 256 or 512.")
    var tileSize: Int = 256

    @Option(
        help: ArgumentHelp(
            "What to draw under the map when no --tiles are given: none or world (default: world).",
            valueName: "none|world"))
    var basemap: String?

    @Option(help: "The most tiles one map may fetch.")
    var maxTiles: Int = 256

    @Option(help: ArgumentHelp("Where fetched tiles are cached (default: ~/.cache/declutter/tiles).", valueName: "dir"))
    var tileCache: String?

    @Option(help: "Seconds before a tile request gives up.")
    var timeout: Double = 10

    @Option(help: "Seconds all of a map's tile requests may take together; tiles not fetched by then are missing.")
    var deadline: Double = HTTPTileSource.defaultDeadline

    @Option(
        help: ArgumentHelp(
            "What to do when tiles cannot be had: grey (draw grey squares, warn) or fail (no map, exit 2).",
            valueName: "grey|fail"))
    var missingTiles: String = MissingTiles.grey.rawValue

    @Option(
        help: ArgumentHelp(
            "Attribution text for the bottom-right corner (default: the tile set's own).", valueName: "text"))
    var attribution: String?

    @Option(help: ArgumentHelp("A route: a GeoJSON file of LineStrings.", valueName: "file"))
    var route: String?

    @Option(help: ArgumentHelp("A route as an encoded polyline.", valueName: "encoded"))
    var polyline: String?

    @Option(help: "The encoded polyline's precision: 5 (Google, OSRM) or 6 (Valhalla).")
    var polylinePrecision: Int = 5

    @Option(help: ArgumentHelp("A GeoJSON layer of lines and polygons (repeatable).", valueName: "file"))
    var overlay: [String] = []

    @Option(
        parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "A circle on the ground (repeatable): LAT,LON in degrees and a radius over 0 and up to 20,000 km in metres.",
            valueName: "lat,lon,metres"), transform: CircleArgument.parse)
    var circle: [CircleArgument] = []

    @Option(
        help: ArgumentHelp(
            "Stroke colour of overlays and circles: #RGB, #RRGGBB or #RRGGBBAA.", valueName: "#RRGGBB[AA]"))
    var stroke: HexColorArgument?

    @Option(help: "Stroke width of overlays and circles, in points.")
    var strokeWidth: Double?

    @Option(
        help: ArgumentHelp("Fill colour of polygons and circles: #RGB, #RRGGBB or #RRGGBBAA.", valueName: "#RRGGBB[AA]")
    )
    var fill: HexColorArgument?

    @Option(help: "Opacity of overlays and circles, 0…1.")
    var opacity: Double?

    @Flag(help: "Draw a scale bar.")
    var scaleBar = false

    @Flag(
        help:
            "Draw a legend (colour, category, points on the map) in the corner where it covers the fewest points; markers keep clear of it."
    )
    var legend = false

    @Option(
        help: ArgumentHelp(
            "When to draw a north arrow: auto (when --bearing is not 0), always or never.",
            valueName: "auto|always|never"))
    var compass: String = "auto"

    @Option(help: ArgumentHelp("Also write what was drawn as JSON (views, members, frames).", valueName: "file.json"))
    var layout: String?

    @Option(
        help: ArgumentHelp(
            "With --layout, a value each cluster of the layout carries, computed over its points' numeric property (repeatable): FUNC one of sum, mean, min, max, count.",
            valueName: "name=func:prop"))
    var aggregate: [String] = []

    @Option(
        help: ArgumentHelp("The file to write; its extension (.png, .svg, .pdf) picks the format.", valueName: "file"))
    var output: String

    func validate() throws {
        guard (1...3).contains(scale) else { throw ValidationError("--scale must be 1, 2 or 3, got \(scale)") }
        guard [256, 512].contains(tileSize) else {
            throw ValidationError("--tile-size must be 256 or 512, got \(tileSize)")
        }
        guard (1...4096).contains(maxTiles) else {
            throw ValidationError("--max-tiles must be in 1…4096, got \(maxTiles)")
        }
        guard [5, 6].contains(polylinePrecision) else { throw ValidationError("--polyline-precision must be 5 or 6") }
        if let padding, !(padding >= 0 && padding.isFinite) {
            throw ValidationError("--padding must be 0 or more points")
        }
        guard timeout > 0, timeout <= 300 else { throw ValidationError("--timeout must be in (0, 300] seconds") }
        guard deadline > 0, deadline <= 600 else {
            throw ValidationError("--deadline must be in (0, 600] seconds, got \(deadline.messageText)")
        }
        guard MissingTiles(rawValue: missingTiles) != nil else {
            throw ValidationError("--missing-tiles must be grey or fail, got \(missingTiles)")
        }
        if let opacity, !(0...1).contains(opacity) { throw ValidationError("--opacity must be in 0…1, got \(opacity)") }
        if let strokeWidth, !(0...100).contains(strokeWidth) {
            throw ValidationError("--stroke-width must be in 0…100 points")
        }
        if let basemap, !["none", "world"].contains(basemap) {
            throw ValidationError("--basemap must be none or world, got \(basemap)")
        }
        if basemap != nil && tiles != nil { throw ValidationError("give --tiles or --basemap, not both") }
        if let tiles { try Self.checkTileSourceScheme(tiles) }
        if let zoom, !MapCamera.zoomRange.contains(zoom) {
            throw ValidationError("--zoom must be in \(MapCamera.zoomRangeText), got \(zoom.messageText)")
        }
        guard MapCamera.zoomRange.contains(maxZoom) else {
            throw ValidationError("--max-zoom must be in \(MapCamera.zoomRangeText), got \(maxZoom.messageText)")
        }
        if center != nil && zoom == nil {
            throw ValidationError("--center needs --zoom too (or give neither, and the map fits the data)")
        }
        if category == nil, colors != nil || colorsFor != nil {
            throw ValidationError(
                "--\(colors != nil ? "colors" : "colors-for") colours the values of --category; give --category PROP too"
            )
        }
        if let colors, colors < 1 { throw ValidationError("--colors must be 1 or more, got \(colors)") }
        if let colorsFor, colorValues(colorsFor).isEmpty {
            throw ValidationError("--colors-for must name at least one value, got \"\(colorsFor)\"")
        }
        guard pitch.isFinite, Perspective.pitchRange.contains(pitch) else {
            throw ValidationError("--pitch must be in 0…60 degrees, got \(pitch.messageText)")
        }
    }

    /// The size in points, checked against the pixel limit at `scale`.
    static func checked(_ size: SizeArgument, scale: Int) throws -> (Double, Double) {
        guard size.width * Double(scale) <= Double(Surface.maximumSide),
            size.height * Double(scale) <= Double(Surface.maximumSide)
        else {
            throw ValidationError(
                "--size \(size.defaultValueDescription) at scale \(scale) is over the limit of \(Surface.maximumSide) px per side"
            )
        }
        return (size.width, size.height)
    }

    /// Throws unless a `--tiles` value with a scheme is an http(s) URL: any other (`ftp://`, `s3://`) was taken for a
    /// folder's path, and every tile for a missing file.
    static func checkTileSourceScheme(_ value: String) throws {
        guard let colon = value.range(of: "://"), !value.hasPrefix("http://"), !value.hasPrefix("https://") else {
            return
        }
        let scheme = value[..<colon.lowerBound]
        guard !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) else { return }
        throw ValidationError(
            "--tiles \(value.prefix(100)): \(scheme):// is not fetched; expected an http(s) URL template, a folder or path template, or an .mbtiles file"
        )
    }

    /// The tile source a `--tiles` value names.
    static func tileSource(
        _ value: String, tileSize: Int, scale: Int, cache: String?, timeout: Double, deadline: Double,
        attribution: String?
    ) throws -> any TileSource {
        let retina = scale >= 2
        if value.hasPrefix("http://") || value.hasPrefix("https://") {
            return try HTTPTileSource(
                template: value, tilePixelSize: tileSize, attribution: attribution,
                cacheDirectory: cache.map { URL(fileURLWithPath: $0) } ?? HTTPTileSource.defaultCacheDirectory,
                timeout: timeout, deadline: deadline, retina: retina)
        }
        if value.lowercased().hasSuffix(".mbtiles") {
            return try MBTilesSource(path: value, tilePixelSize: tileSize)
        }
        return try DirectoryTileSource(path: value, tilePixelSize: tileSize, attribution: attribution, retina: retina)
    }

    func run() throws {
        let format = try OutputFormat(path: output)
        if !(try AggregateOption.parse(aggregate)).isEmpty, layout == nil {
            throw ValidationError("--aggregate needs --layout FILE.json: the layout's clusters carry the values")
        }
        if let layout, !layout.lowercased().hasSuffix(".json") {
            throw ValidationError("--layout must name a .json file, got \(layout)")
        }
        // Checked before anything is read, so a slip of the finger costs nothing and replaces nothing.
        var inputs = [(option: "--input", path: input)], outputs = [(option: "--output", path: output)]
        for case let (option, path?) in [
            ("--route", route), ("--tiles", tiles), ("--style", style), ("--frames", frames),
        ] { inputs.append((option, path)) }
        inputs += overlay.map { ("--overlay", $0) }
        if frames != nil, format != .png {
            throw ValidationError("--frames draws a PNG strip; --output must end in .png, got \(output)")
        }
        let gesture = try frames.map(Self.readFrames)
        if let layout { outputs.append(("--layout", layout)) }
        try FileSystem.refuseOverwriting(outputs, inputs: inputs)
        let (width, height) = try Self.checked(size, scale: format == .png ? scale : 1)
        let (read, inputFormat) = try inputOptions.read(input, category: category, skipInvalid: skipInvalid)
        let style = try StyleLocator.loadCheckingFont(
            self.style ?? (inputFormat == .plist ? "tandm" : "default"), outputs: outputs)
        try NamedProperties.check(
            category: category, groupBy: nil, aggregates: try AggregateOption.parse(aggregate), in: read.points,
            input: input)
        // Without --category the file's own categories (a TANDm plist's) must be the style's; checked here as well as
        // by the annotator so that the message names the line or feature, not a position.
        let known = Set(style.categories.map(\.name))
        if category == nil,
            let bad = read.points.indices.first(where: {
                read.points[$0].location != nil && !known.contains(read.points[$0].category ?? style.categories[0].name)
            }),
            let name = read.points[bad].category
        {
            let place = read.location(ofPoint: bad).map { "\($0): " } ?? ""
            throw CommandError(
                "\(PointInputOptions.name(of: input)): \(place)category \"\(name.escapedForTerminal)\" is not in style "
                    + "\"\(style.name.escapedForTerminal)\"; expected one of: \(style.categories.map(\.name).nameList())"
            )
        }
        if legend, category == nil, !read.points.contains(where: { $0.category != nil }) {
            // A one-row legend naming the style's first colour says nothing about the data; the user is told why.
            StandardError.write(
                "warning: --legend: without --category every point is in the style's first category, "
                    + "\"\(style.categories[0].name.escapedForTerminal)\", the legend's one row; --category PROP "
                    + "colours the points by a property\n")
        }
        let firstColored = try checkColors(style: style, points: read.points)
        // GeoJSON features without a geometry have been warned about; they have no place on the map.
        let located = read.locatedPoints
        if layout != nil, let warning = MapLayout.ambiguityWarning(points: located) {
            StandardError.write("warning: \(warning)\n")
        }
        var map = MapDescription(points: located, style: style)
        map.furniture.legend = legend
        map.furniture.legendTitle = category
        map.furniture.compass =
            try MapFurniture.CompassChoice(rawValue: compass)
            ?? { throw ValidationError("--compass must be auto, always or never, got \(compass)") }()
        map.furniture.scaleBar = scaleBar
        map.furniture.attribution = attribution
        map.width = width
        map.height = height
        map.scale = Double(scale)
        map.bearing = bearing
        map.pitch = pitch
        map.maxTiles = maxTiles
        map.missingTiles = MissingTiles(rawValue: missingTiles) ?? .grey
        if let tiles {
            map.basemap = .tiles(
                try Self.tileSource(
                    tiles, tileSize: tileSize, scale: format == .png ? scale : 1, cache: tileCache,
                    timeout: timeout, deadline: deadline, attribution: attribution))
        } else if basemap == "none" {
            map.basemap = .none
        }
        map.overlays = try overlays(style: style.map)
        map.framing = try framing(region: read.region, hasData: !located.isEmpty || !map.overlays.isEmpty)
        // Values not of the style take its colours by how often the map shows them.
        map.categoryProperty = category
        map.colorCount = colors
        map.colorValues = firstColored
        if let gesture { return try drawFrames(gesture, map: map) }
        var result = try map.draw(format: format)
        result.aggregates = try AggregateOption.parse(aggregate)
        if !result.aggregates.isEmpty, let warning = ClusterAggregates(result.aggregates, points: result.points).warning
        {
            StandardError.write(warning + "\n")
        }
        if let note = result.categoryNote { StandardError.write("note: --category \(note)\n") }
        for warning in result.warnings.prefix(10) { StandardError.write("warning: \(warning)\n") }
        if result.warnings.count > 10 {
            StandardError.write("warning: … and \(result.warnings.count - 10) more missing tiles\n")
        }
        // Both or neither: every file is encoded first, then all are written together, so a failure leaves none.
        var files = [(data: try result.canvas.data(), url: URL(fileURLWithPath: output))]
        if let layout { files.append((Data((result.layout.jsonText + "\n").utf8), URL(fileURLWithPath: layout))) }
        try FileSystem.writeAllAtomically(files)
        if let note = result.hiddenPointsNote { StandardError.write("note: \(note)\n") }
        if let note = result.basemapNote { StandardError.write("note: \(note)\n") }
        if let center,
            let note = Self.emptyMapNote(
                center: center.coordinate, pointsInView: result.content.pointsInView, points: located)
        {
            StandardError.write("note: \(note)\n")
        }
        try StandardOutput.print(MapSummary.line(result, path: output, scale: Double(scale), format: format))
    }

    /// How the camera is chosen: at --center and --zoom (the data's middle without --center), else the input's own
    /// region, else fitted to the data within --padding up to --max-zoom.
    ///
    /// - Throws: ``CommandError`` when there is nothing to fit or centre the map on: no point, no overlay, no region
    ///   and no --center (an empty file would otherwise give a map of 0°, 0° that looks like a success).
    func framing(region: WorldBounds?, hasData: Bool) throws -> MapFraming {
        if !hasData, region == nil, center == nil {
            let name = PointInputOptions.name(of: input)
            throw CommandError(
                "\(name.escapedForTerminal) has no points and there are no overlays to fit the map to; "
                    + "give --center and --zoom to draw a map without markers")
        }
        if let zoom { return .centered(center?.coordinate, zoom: zoom) }
        // As the sample app does: the region fills the map, no padding.
        if let region { return .region(region, padding: EdgePadding(all: 0), maxZoom: MapCamera.zoomRange.upperBound) }
        // A thumbnail fitted with the default padding would have no room left for the data.
        let padding = self.padding ?? min(40, min(size.width, size.height) / 4)
        guard 2 * padding < min(size.width, size.height) else {
            throw CommandError(
                "--padding \(padding.messageText) leaves no room on a \(size.defaultValueDescription) map to fit the data "
                    + "in; give a --padding below \((min(size.width, size.height) / 2).messageText), or --center and --zoom"
            )
        }
        return .data(padding: EdgePadding(all: padding), maxZoom: maxZoom)
    }

    /// Draws `--frames`: the strip, and the layout of every frame with `--layout`.
    func drawFrames(_ gesture: GestureFrames, map: MapDescription) throws {
        // Checked here, before any drawing, so that the messages name the option.
        let start = try map.camera()
        do {
            _ = try CameraGesture().cameras(from: start, steps: gesture.steps)
        } catch let error as CameraError {
            throw CommandError("--frames: \(error.message)")
        }
        let frameWidth = Int((map.width * map.scale).rounded(.up)), frames = gesture.steps.count + 1
        guard frameWidth * frames <= Surface.maximumSide else {
            throw CommandError(
                "--frames: \(frames) frames of \(frameWidth) px make a strip \(frameWidth * frames) px wide, "
                    + "over the limit of \(Surface.maximumSide) px; use fewer steps or a smaller --size")
        }
        let result = try gesture.draw(map)
        if let note = result.categoryNote { StandardError.write("note: --category \(note)\n") }
        var warnings: [String] = []
        for warning in result.frames.flatMap(\.warnings) where !warnings.contains(warning) { warnings.append(warning) }
        for warning in warnings.prefix(10) { StandardError.write("warning: \(warning)\n") }
        var files = [(data: result.strip, url: URL(fileURLWithPath: output))]
        if let layout { files.append((Data((result.layout.jsonText + "\n").utf8), URL(fileURLWithPath: layout))) }
        try FileSystem.writeAllAtomically(files)
        try StandardOutput.print(
            "wrote \(output): \(result.frames.count) frames of \(Int(map.width))×\(Int(map.height)) pt side by side "
                + "(\(result.pixelWidth)×\(result.pixelHeight) px)")
    }

    /// Routes, GeoJSON layers and circles, painted by the style unless flags say otherwise.
    func overlays(style: MapStyle) throws -> [MapOverlay] {
        var result: [MapOverlay] = []
        var paint = style.overlay, circlePaint = style.circle
        if let stroke {
            paint.stroke = stroke.color
            circlePaint.stroke = stroke.color
        }
        if let fill {
            paint.fill = fill.color
            circlePaint.fill = fill.color
        }
        if let strokeWidth {
            paint.width = strokeWidth
            circlePaint.width = strokeWidth
        }
        if let opacity {
            paint.opacity = opacity
            circlePaint.opacity = opacity
        }
        for file in overlay {
            let shapes = try MapShape.read(contentsOf: URL(fileURLWithPath: file))
            // Points in an overlay are left out (they are what --input clusters): a file of points alone drew nothing
            // and said nothing.
            if shapes.isEmpty {
                StandardError.write(
                    "warning: \(file): no line or polygon to draw; an overlay draws LineString, Polygon and their Multi "
                        + "forms (points to show go in --input)\n")
            }
            result.append(MapOverlay(.shapes(shapes), paint: paint))
        }
        for circle in circle {
            result.append(MapOverlay(.circle(center: circle.center, radius: circle.radius), paint: circlePaint))
        }
        if let route {
            let lines = try MapShape.read(contentsOf: URL(fileURLWithPath: route)).filter { $0.kind == .line }
            guard !lines.isEmpty else {
                throw CommandError("\(route): expected a LineString or MultiLineString for the route")
            }
            for line in lines {
                for part in line.rings {
                    result.append(MapOverlay(.route(part), paint: style.route, casing: style.routeCasing))
                }
            }
        }
        if let polyline {
            let points = try Polyline.decode(polyline, precision: polylinePrecision)
            guard points.count >= 2 else {
                throw CommandError("--polyline: expected at least two points, got \(points.count)")
            }
            result.append(MapOverlay(.route(points), paint: style.route, casing: style.routeCasing))
        }
        return result
    }

    /// The steps of a `--frames` file.
    ///
    /// - Throws: ``CommandError`` naming the file, the step and the field at fault.
    static func readFrames(_ path: String) throws -> GestureFrames {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CommandError("--frames \(path): cannot be read (\(error.localizedDescription))")
        }
        do {
            return GestureFrames(steps: try CameraGesture.Step.steps(json: data))
        } catch let error as CameraError {
            throw CommandError("--frames \(path): \(error.message)")
        }
    }
}
