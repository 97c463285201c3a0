import DeclutterBasemap
import DeclutterClustering
import DeclutterGeometry
import DeclutterInput
import DeclutterMapContent
import DeclutterPlacement
import DeclutterRender
import DeclutterStyle
import DeclutterSupport
import DeclutterTiles
import Foundation

/// Clusters points into a vector tileset and writes it with what a web map needs beside it: the style's sprite
/// sheet and a MapLibre `style.json`: what `declutter tiles` and its benchmark run.
public struct TilesetJob {
    /// The points, each with its category (a name of `style`'s) and clustering identifier.
    public var points: [ClusterPoint]
    /// The style whose sprite sheet names the icons.
    public var style: MarkerStyle
    /// The zooms written; the last is also the clustering's `maxZoom`, as supercluster's.
    public var zooms: ClosedRange<Int> = 0...14
    /// The cluster radius at extent 512, as supercluster's default.
    public var radius: Double = 40
    /// The vector layer's name.
    public var layer = "points"
    /// Tile units beyond each edge a tile takes features from, at extent 4096.
    public var buffer = 64
    /// The public URL the output is served from, for `style.json`.
    public var baseURL = MapLibreStyle.defaultBaseURL
    /// The sprite sheet's pixel ratios. Default ``defaultRatios``.
    public var ratios = Self.defaultRatios
    /// MapLibre's sprite sheets at 1× and 2×: it asks for `@2x` on every high-density screen.
    public static let defaultRatios = [1, 2]
    /// Where the tileset came from, for its description.
    public var source = "points"
    /// The tileset's name in TileJSON and the archive's metadata, as viewers list it.
    public var name = "points"
    /// How each zoom's clusters are made. Default ``Placement/placed``.
    public var placement = Placement.placed
    /// What placed clusters carry besides their counts (`--aggregate`).
    public var aggregates: [ClusterAggregate] = []
    /// Whether the points keep the clustering identifiers they were read with (`--group-by`) rather than their
    /// categories'. Default false.
    public var keepsIdentifiers = false
    /// A style of the user's own that `style.json` is to be, with the clusters merged in (``StyleMerge``); nil writes
    /// Declutter's own style.
    public var baseStyle: Data?
    /// The base style's layer the clusters' layers go before; nil puts them on top.
    public var beforeLayer: String?
    /// What the colours mean, written into `style.json`'s metadata for a page to show (``MapLibreStyle/legend``):
    /// every point counted. Nil writes none.
    public var legend: MapLegend?
    /// Whether the embedded basemap goes with the tiles as a tileset of its own (``BasemapTileset``, zooms 0…8) that
    /// `style.json` draws under the clusters: inside a folder as `basemap/{z}/{x}/{y}.pbf`, beside an archive as
    /// `NAME-basemap.mbtiles` or `NAME-basemap.pmtiles`. Default false; `declutter tiles` asks for it unless told
    /// `--no-basemap`.
    public var basemap = false

    /// How a tileset's clusters are made.
    public enum Placement: String, Sendable, CaseIterable {
        /// Each zoom placed as a static map of the whole world is (``PlacedTileset``): no two icons overlap, every
        /// point counted once, counts drawn exactly as text over rings.
        case placed
        /// supercluster's clusters, exactly (``ClusterTileset``): radius ``TilesetJob/radius`` at extent 512, icons per
        /// count step, overlapping where clusters lie closer than an icon.
        case supercluster
    }

    /// The job for points as `declutter tiles` reads them: when `categoryProperty` named their categories and its
    /// values are not `style`'s, the values take the style's colours by frequency (``DataCategories``); then the
    /// points are prepared by ``CategoryAssignment/prepared(_:style:categoryProperty:keepingIdentifiers:)``. The
    /// command and its benchmark both start here, so that the benchmark times the command's work.
    ///
    /// - Throws: ``AnnotationError`` naming the first point whose category the style lacks.
    public init(points: [ClusterPoint], style: MarkerStyle, categoryProperty: String?, keepingIdentifiers: Bool) throws
    {
        let prepared = try CategoryAssignment.prepared(
            points, style: style, categoryProperty: categoryProperty,
            keepingIdentifiers: keepingIdentifiers)
        self.init(points: prepared.points, style: prepared.style)
        keepsIdentifiers = keepingIdentifiers
        legend = MapLegend(
            title: categoryProperty, style: prepared.style, points: prepared.points, sharedValues: prepared.sharedValues
        )
    }

    /// What to say about the points before the tiles are made: how many lie beyond ±85.0511°, which the tiles show on
    /// the world's top or bottom edge, and how many at exactly 0°, 0°, almost always missing values; as `render`
    /// says them of a map.
    public var pointWarnings: [String] { PointPlaceWarnings.tileset(points) }

    /// Creates a job for points already prepared for `style`.
    public init(points: [ClusterPoint], style: MarkerStyle) {
        self.points = points
        self.style = style
    }

    /// What was written.
    public struct Summary {
        /// Tiles written (empty tiles are not).
        public var tiles: Int
        /// Their uncompressed bytes.
        public var bytes: Int
        /// The files written beside the tiles (inside a folder tileset, or beside an archive file).
        public var companions: [String]
        /// The sprite sheet's names.
        public var spriteNames: Int
        /// What the user must know about the style written (``StyleMerge/Result/notes``).
        public var styleNotes: [String] = []
        /// Seconds spent on each part of the job, which `declutter-bench tiles` reports apart: the sprite sheet, the
        /// cluster index (and the glyph ranges), and the tiles (enumerated, encoded and written, the archive
        /// finished; the basemap's apart).
        public var seconds: (sprites: Double, index: Double, tiles: Double)
        /// The basemap's tiles written, their uncompressed bytes, the bytes of its archive on disk (of its tiles in a
        /// folder), and the seconds its tiles and archive took (its place names' glyphs are among the index's);
        /// zeros without the basemap.
        public var basemap: (tiles: Int, bytes: Int, stored: Int, seconds: Double) = (0, 0, 0, 0)
    }

    /// Where the basemap goes for an output: inside a folder, beside an archive with `-basemap` before its extension.
    public static func basemapOutput(for output: String, format: TilesetFormat) -> String {
        guard format != .folder else { return "basemap" }
        // As text, so that a relative output gives a relative name.
        return (output as NSString).deletingPathExtension + "-basemap." + format.rawValue
    }

    /// The names of the files beside the tiles for an output: inside a folder `style.json` and `sprite…`; beside an
    /// archive `NAME-style.json` and `NAME-sprite…`, so that two archives in one folder keep their own.
    public static func companionPrefix(for output: String, format: TilesetFormat) -> String {
        format == .folder ? "" : URL(fileURLWithPath: output).deletingPathExtension().lastPathComponent + "-"
    }

    /// The style and sprite sheets written beside the tiles (before ``companionPrefix(for:format:)``), for `ratios`.
    public static func styleAndSpriteNames(ratios: [Int] = defaultRatios) -> [String] {
        ["style.json"]
            + ratios.flatMap { ratio in
                let sheet = SpriteSheetBuilder.sheetNames(ratio: ratio)
                return [sheet.image, sheet.index]
            }
    }

    /// Builds the index, encodes every tile on every core into `output` (`.mbtiles`, `.pmtiles` or a new folder)
    /// and writes the sprite sheet and `style.json` with it; all appear together or nothing does.
    ///
    /// - Parameter progress: called with (tiles done, zoom) as zooms finish.
    public func write(to output: String, progress: ((Int, Int) -> Void)? = nil) throws -> Summary {
        let start = Self.now()
        let format = try TilesetFormat(path: output)
        let prefix = Self.companionPrefix(for: output, format: format)
        // The sprite sheet first: a style asking for too many icons is refused before any tile is encoded.
        let sheet = try SpriteSheetBuilder(style: style).build(ratios: ratios, svg: false, rings: placement == .placed)
        // The sheets and their indexes; MapLibre reads nothing else of what `declutter sprites` writes.
        var companions = sheet.files.filter { $0.name != "sprite.manifest.json" }.map {
            (name: prefix + $0.name, data: $0.data)
        }
        let spritesEnd = Self.now()

        // The basemap next, before the points are placed (see ``writeBasemap(output:format:)``); what its encoders
        // freed lies in their threads' heaps, which placing need not reuse, so it goes back to the system.
        let basemapWritten = try basemap ? writeBasemap(output: output, format: format) : nil
        if basemapWritten != nil { FreedMemory.returnToSystem() }
        companions += basemapWritten?.companions ?? []

        let indexStart = Self.now()
        let tileset: any VectorTileset
        var countText: MapLibreStyle.CountText?
        switch placement {
        case .supercluster:
            let options = ClusterOptions(
                radius: radius, extent: 512, minZoom: zooms.lowerBound, maxZoom: zooms.upperBound, minPoints: 2,
                releasesFreedMemory: true)
            let index = ClusterIndex(points: points, options: options, categories: style.categories.map(\.name))
            tileset = try ClusterTileset(
                index: index, style: style, layerName: layer, extent: 4096, buffer: buffer, zooms: zooms)
        case .placed:
            tileset = try PlacedTileset(
                placing: points, style: style, zooms: zooms, layerName: layer, buffer: buffer, aggregates: aggregates,
                keepingIdentifiers: keepsIdentifiers)
        }
        let glyphTemplate = prefix + "glyphs/{fontstack}/{range}.pbf"
        if placement == .placed || basemapWritten != nil {
            let glyphs = try CountGlyphs(style: style, placeNames: basemapWritten?.placeNames ?? [])
            companions += glyphs.files(in: prefix + "glyphs")
            if placement == .placed { countText = glyphs.countText(glyphs: glyphTemplate, style: style) }
        }
        let tilesStart = Self.now()
        let box = TileBounds(enclosing: points)
        // The map opens on the points' box the shorter way round the world (its east past 180° when it crosses the
        // antimeridian): points about 180° then open there, not on the empty far side, which the box of their
        // longitudes from -180° to 180° centres. The archives and TileJSON say the same centre.
        let span = TileBounds(WorldBounds.enclosing(ProjectedPoints(points)))
        let middle = (span.west + span.east) / 2, limit = TileBounds.world.north
        let center = Coordinate(
            longitude: middle > 180 ? middle - 360 : middle,
            latitude: max(-limit, min(limit, (span.south + span.north) / 2)))
        let bounds = box.stated
        var mapStyle = MapLibreStyle(
            markerStyle: style, tiles: try sourceTiles(output: output, format: format, bounds: bounds), baseURL: baseURL
        )
        mapStyle.sprite = prefix + "sprite"
        mapStyle.sourceLayer = layer
        mapStyle.center = center
        mapStyle.zoom = MapLibreStyle.fittingZoom(span, within: zooms)
        mapStyle.countText = countText
        mapStyle.legend = legend
        if let basemapWritten {
            mapStyle.basemap = MapLibreStyle.Basemap(
                tiles: basemapTiles(output: output, format: format, zooms: basemapWritten.zooms), colors: style.map,
                glyphs: glyphTemplate)
        }
        var styleData = try mapStyle.jsonData(), notes: [String] = []
        if let baseStyle {
            let merged = try StyleMerge.merge(
                base: baseStyle, ours: styleData, beforeLayer: beforeLayer, glyphFolder: prefix + "glyphs")
            styleData = merged.style
            notes = merged.notes
        }
        companions.append((name: prefix + "style.json", data: styleData))

        // The folder's tiles.json lists its tiles at the style's base URL, which MapLibre can load.
        let writer = try TilesetFormat.writer(for: output, baseURL: baseURL)
        var tiles = 0, bytes = 0, zoom = zooms.lowerBound
        do {
            try tileset.encode(batchSize: 256) { batch in
                try writer.add(batch)
                tiles += batch.count
                bytes += batch.reduce(0) { $0 + $1.data.count }
                zoom = batch.last?.z ?? zoom
                progress?(tiles, zoom)
            }
            var metadata = tileset.metadata(description: "Declutter clusters of \(source)", bounds: bounds)
            metadata.name = name
            metadata.center = .init(longitude: center.longitude, latitude: center.latitude, zoom: metadata.center.zoom)
            try writer.finish(metadata, companions: companions)
        } catch {
            writer.cancel()
            throw error
        }
        // The basemap is not a companion to list (nor its tiles file by file); the summary counts it.
        let basemapName = URL(fileURLWithPath: Self.basemapOutput(for: output, format: format)).lastPathComponent
        let names = companions.map(\.name).filter { !$0.hasPrefix("basemap/") && $0 != basemapName }
        var summary = Summary(
            tiles: tiles, bytes: bytes, companions: names, spriteNames: sheet.nameCount, styleNotes: notes,
            seconds: (
                sprites: spritesEnd - start, index: tilesStart - indexStart, tiles: Self.now() - tilesStart
            ))
        summary.basemap = basemapWritten?.summary ?? (0, 0, 0, 0)
        return summary
    }

    /// Seconds on a monotonic clock, for the summary's timings.
    private static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// The embedded basemap as companions of the output: in a folder its tiles, beside an archive its own archive,
    /// written to a hidden temporary and read back, so that it appears with the output or not at all; with what the
    /// summary and the style say of it.
    ///
    /// It is written before the points are placed, from a file opened for it alone: encoding decodes every cell of
    /// every band, which the process's shared file would keep to the end, beside every placed zoom (for 144,563
    /// cities, 43 MB of cells and the whole run's peak).
    private func writeBasemap(output: String, format: TilesetFormat) throws -> (
        companions: [(name: String, data: Data)], summary: (tiles: Int, bytes: Int, stored: Int, seconds: Double),
        zooms: ClosedRange<Int>, placeNames: [String]
    ) {
        let start = Self.now()
        let file = try EmbeddedBasemap.openedAlone()
        let basemapTileset = try BasemapTileset(file: file)
        var companions: [(name: String, data: Data)] = []
        var basemapSummary: (tiles: Int, bytes: Int, stored: Int, seconds: Double) = (0, 0, 0, 0)
        var written: (tiles: Int, bytes: Int) = (0, 0)
        if format == .folder {
            try basemapTileset.encode { batch in
                companions += batch.map { (name: "basemap/\($0.z)/\($0.x)/\($0.y).pbf", data: $0.data) }
                written.tiles += batch.count
                written.bytes += batch.reduce(0) { $0 + $1.data.count }
            }
            basemapSummary = (written.tiles, written.bytes, written.bytes, 0)
        } else {
            let target = URL(fileURLWithPath: Self.basemapOutput(for: output, format: format))
            let temporary = target.deletingLastPathComponent().appendingPathComponent(
                ".\(target.lastPathComponent).\(UUID().uuidString.prefix(8)).\(format.rawValue)"
            ).path
            TemporaryFiles.register(temporary)
            defer { TemporaryFiles.discard(temporary) }
            let basemapWriter = try TilesetFormat.writer(for: temporary)
            do {
                try basemapTileset.encode { batch in
                    try basemapWriter.add(batch)
                    written.tiles += batch.count
                    written.bytes += batch.reduce(0) { $0 + $1.data.count }
                }
                try basemapWriter.finish(basemapTileset.metadata())
            } catch {
                basemapWriter.cancel()
                throw error
            }
            let archive: Data
            do {
                archive = try Data(contentsOf: URL(fileURLWithPath: temporary))
            } catch {
                throw OutputError(path: target.path, reason: "cannot read it back (\(FileSystem.reason(error)))")
            }
            companions.append((name: target.lastPathComponent, data: archive))
            basemapSummary = (written.tiles, written.bytes, archive.count, 0)
        }
        basemapSummary.seconds = Self.now() - start
        let placeNames = try file.places().map(\.name)
        return (companions, basemapSummary, basemapTileset.zooms, placeNames)
    }

    /// Where `style.json` finds the tiles: a folder's template, a PMTiles archive by the `pmtiles://` protocol, or
    /// an MBTiles file's TileJSON as a tile server names it (`NAME.json` beside the base URL).
    func sourceTiles(output: String, format: TilesetFormat, bounds: TileBounds) throws -> MapLibreStyle.Tiles {
        let name = URL(fileURLWithPath: output).lastPathComponent
        switch format {
        case .folder:
            return .template(
                FolderTilesetWriter.tileTemplate, minimumZoom: zooms.lowerBound, maximumZoom: zooms.upperBound,
                bounds: bounds)
        case .pmtiles: return .pmtiles(name)
        case .mbtiles: return .tileJSON(URL(fileURLWithPath: name).deletingPathExtension().lastPathComponent + ".json")
        }
    }

    /// Where `style.json` finds the basemap's tiles, as ``sourceTiles(output:format:bounds:)`` finds the clusters'.
    func basemapTiles(output: String, format: TilesetFormat, zooms: ClosedRange<Int>) -> MapLibreStyle.Tiles {
        let name = URL(fileURLWithPath: Self.basemapOutput(for: output, format: format)).lastPathComponent
        switch format {
        case .folder:
            return .template(
                "basemap/" + FolderTilesetWriter.tileTemplate, minimumZoom: zooms.lowerBound,
                maximumZoom: zooms.upperBound)
        case .pmtiles: return .pmtiles(name)
        case .mbtiles: return .tileJSON(URL(fileURLWithPath: name).deletingPathExtension().lastPathComponent + ".json")
        }
    }
}

extension TilesetJob {
    /// About how many tiles the embedded basemap adds (those that may hold something: 40,580 at zooms 0…8), and its
    /// zooms; nil when the job writes no basemap.
    public func estimatedBasemapTiles() -> (count: Int, zooms: ClosedRange<Int>)? {
        guard basemap, let tileset = try? BasemapTileset(file: EmbeddedBasemap.file()) else { return nil }
        return (tileset.zooms.reduce(0) { $0 + tileset.candidateTiles(zoom: $1).count }, tileset.zooms)
    }

    /// How many tiles of ``zooms`` hold at least one of the points, counted up to `limit`: a folder output's file
    /// count, nearly (a tile's buffer can bring in a neighbour's feature; a cluster can stand in a tile none of its
    /// points is in).
    public func estimatedTileCount(limit: Int = .max) -> Int {
        var total = 0
        for zoom in zooms {
            var keys = Set<UInt64>()
            let side = Double(1 << zoom)
            for point in points {
                guard let location = point.location else { continue }
                let x = UInt64(
                    max(0, min(side - 1, (WebMercator.x(longitude: location.longitude) * side).rounded(.down))))
                let y = UInt64(
                    max(0, min(side - 1, (WebMercator.y(latitude: location.latitude) * side).rounded(.down))))
                keys.insert(x << 32 | y)
            }
            total += keys.count
            if total >= limit { return limit }
        }
        return total
    }
}
