import DeclutterBasemap
import DeclutterSupport
import Foundation

/// The embedded basemap as Mapbox vector tiles (spec 2.1), for a web map to draw under the clusters: layers `land`
/// and `lakes` (polygons), `rivers`, `countries` and `states` (lines) and `places` (points with `name`, `min_zoom` and
/// `rank`).
///
/// A tile of zoom z holds what a static map at zoom z + 1 draws — MapLibre's tiles are 512 pixels across, a static
/// map's world 256 at zoom 0 — so a web map at a whole zoom shows the band and the features a static map at that
/// scale shows. Polygons and lines are cut to the tile and its buffer (``TileClip``) in doubles, then rounded to tile
/// units, and rings are freed of the zero-width corridors cutting leaves along cell and buffer edges
/// (``RingBridges``); a land or lake ring keeps the basemap's orientation, exterior rings clockwise in tile units (y
/// down) as the spec asks, holes after their exterior. A place is in the tile holding its point, named from the zoom whose static
/// map names it. Tiles of open sea are not written.
///
/// Zoom ``maximumZoom`` (8) is the last with anything new: its tiles read the finest band (9–10, for static zoom 9)
/// at 2^20 units a world, the band's own precision; its tiles hold every feature, the few places named from static
/// zoom 9.1–10 too. A zoom-9 tile would hold the same vertices, and MapLibre overzooms the zoom-8 tiles beyond.
public struct BasemapTileset: Sendable {
    /// The layers, in the order a tile holds them.
    public static let layerNames = ["land", "lakes", "rivers", "countries", "states", "places"]
    /// The highest zoom with more detail than the zoom below; MapLibre overzooms its tiles beyond it.
    public static let maximumZoom = 8

    /// The basemap read.
    public let file: BasemapFile
    /// The zooms written.
    public let zooms: ClosedRange<Int>
    /// Tile units across a tile.
    public let extent: Int
    /// Tile units beyond each edge a tile takes geometry from.
    public let buffer: Int

    /// The place names in rank order (``BasemapFile/places()``).
    private let places: [BasemapPlace]
    /// The ranks of the places in each square of a 2^``placeGridLevel`` grid, keyed by `row << level | column`, in rank
    /// order: a tile looks only at those of its square.
    private let placeGrid: [Int: [Int]]
    private static let placeGridLevel = 6

    /// Tiles of `file` at `zooms` (within 0…30), `extent` units across with `buffer` units beyond each edge.
    ///
    /// - Throws: ``BasemapError`` when the place names do not decode.
    public init(file: BasemapFile, zooms: ClosedRange<Int> = 0...maximumZoom, extent: Int = 4096, buffer: Int = 64)
        throws
    {
        self.file = file
        self.zooms = max(0, min(30, zooms.lowerBound))...max(0, min(30, zooms.upperBound))
        self.extent = max(1, extent)
        self.buffer = max(0, buffer)
        places = try file.places()
        var grid: [Int: [Int]] = [:]
        let side = 1 << Self.placeGridLevel
        for (rank, place) in places.enumerated() {
            let column = max(0, min(side - 1, Int(place.x * Double(side))))
            let row = max(0, min(side - 1, Int(place.y * Double(side))))
            grid[row << Self.placeGridLevel | column, default: []].append(rank)
        }
        placeGrid = grid
    }

    /// The ranks of the places that may lie in tile z/x/y, in rank order.
    private func placeRanks(z: Int, x: Int, y: Int) -> [Int] {
        let level = Self.placeGridLevel
        guard z < level else { return placeGrid[(y >> (z - level)) << level | x >> (z - level)] ?? [] }
        let shift = level - z
        var ranks: [Int] = []
        for row in (y << shift)..<((y + 1) << shift) {
            for column in (x << shift)..<((x + 1) << shift) { ranks += placeGrid[row << level | column] ?? [] }
        }
        return ranks.sorted()
    }

    /// The band a tile of `zoom` reads: a static map's at zoom + 1.
    func band(zoom: Int) -> Int { file.band(forZoom: Double(zoom + 1)) }

    /// Whether a feature shown from `minZoom` (a static map's zoom) is in a tile of `zoom`: from zoom ``maximumZoom``
    /// on, every feature is.
    static func shows(minZoom: Double, zoom: Int) -> Bool { zoom >= maximumZoom || minZoom <= Double(zoom + 1) }

    /// The tiles of `zoom` that may hold something, as (x, y), by row then column: every tile within a cell of the
    /// zoom's band, and every tile holding a place named there.
    public func candidateTiles(zoom: Int) -> [(x: Int, y: Int)] {
        let info = file.bands[band(zoom: zoom)], level = info.level
        var keys = Set<Int>()
        for key in info.cells.keys {
            let column = key & ((1 << level) - 1), row = key >> level
            if zoom >= level {
                let shift = zoom - level
                for y in (row << shift)..<((row + 1) << shift) {
                    for x in (column << shift)..<((column + 1) << shift) { keys.insert(y << zoom | x) }
                }
            } else {
                keys.insert((row >> (level - zoom)) << zoom | column >> (level - zoom))
            }
        }
        let count = Double(1 << zoom)
        for place in places {
            guard Self.shows(minZoom: place.minZoom, zoom: zoom) else { break }
            let x = min(Int(place.x * count), (1 << zoom) - 1), y = min(Int(place.y * count), (1 << zoom) - 1)
            keys.insert(y << zoom | x)
        }
        return keys.sorted().map { (x: $0 & ((1 << zoom) - 1), y: $0 >> zoom) }
    }

    /// Encodes every non-empty tile of ``zooms`` on every core and hands them to `deliver` in batches of about
    /// `batchSize`, zoom by zoom.
    ///
    /// - Throws: ``BasemapError`` when a cell does not decode, or what `deliver` throws.
    public func encode(batchSize: Int = 256, deliver: ([EncodedTile]) throws -> Void) throws {
        let batchSize = max(1, batchSize), workers = Cores.available
        for zoom in zooms {
            let tiles = candidateTiles(zoom: zoom)
            var first = 0
            while first < tiles.count {
                let window = min(tiles.count - first, batchSize * workers)
                let results = concurrentMap(workers) { worker in
                    Result { () throws -> [EncodedTile] in
                        try stride(from: first + worker, to: first + window, by: workers).compactMap { index in
                            let (x, y) = tiles[index]
                            return try tile(z: zoom, x: x, y: y).map { EncodedTile(z: zoom, x: x, y: y, data: $0) }
                        }
                    }
                }
                for result in results { try deliver(try result.get()) }
                first += window
            }
        }
    }

    /// The bytes of tile z/x/y; nil when it holds nothing (open sea) or lies outside the tileset.
    ///
    /// - Throws: ``BasemapError`` when a cell does not decode.
    public func tile(z: Int, x: Int, y: Int) throws -> Data? {
        guard zooms.contains(z), x >= 0, y >= 0, x < 1 << z, y < 1 << z else { return nil }
        let scale = Double(1 << z), units = Double(extent)
        // The tile and its buffer in world units, and the band's cells under them.
        let margin = Double(buffer) / units
        let minX = (Double(x) - margin) / scale, maxX = (Double(x + 1) + margin) / scale
        let minY = (Double(y) - margin) / scale, maxY = (Double(y + 1) + margin) / scale
        let bandIndex = band(zoom: z), info = file.bands[bandIndex], count = 1 << info.level
        func cellRange(_ low: Double, _ high: Double) -> ClosedRange<Int> {
            max(
                0, min(count - 1, Int((low * Double(count)).rounded(.down))))...max(
                    0, min(count - 1, Int((high * Double(count)).rounded(.down))))
        }
        var cells: [BasemapCell] = []
        for row in cellRange(minY, maxY) {
            for column in cellRange(minX, maxX) {
                if let cell = try file.cell(band: bandIndex, column: column, row: row) { cells.append(cell) }
            }
        }
        let clip = TileClip(extent: extent, buffer: buffer)
        /// A world point in this tile's units.
        func local(_ point: (x: Double, y: Double)) -> (x: Double, y: Double) {
            ((point.x * scale - Double(x)) * units, (point.y * scale - Double(y)) * units)
        }
        var output: [UInt8] = []
        for layer in BasemapCell.Layer.allCases {
            var parts: [[(x: Int32, y: Int32)]] = []
            let polygon = layer == .land || layer == .lakes
            // A hole follows its exterior; once an exterior is dropped, so are its holes.
            var exteriorKept = false
            for cell in cells {
                for path in cell[layer] where Self.shows(minZoom: path.minZoom, zoom: z) {
                    let low = local((path.bounds.minX, path.bounds.minY)),
                        high = local((path.bounds.maxX, path.bounds.maxY))
                    if polygon {
                        let area = path.doubleArea
                        if area > 0 { exteriorKept = false }
                        guard !clip.isOutside(minX: low.x, minY: low.y, maxX: high.x, maxY: high.y) else {
                            continue
                        }
                        let points = path.points.map(local)
                        let cut =
                            clip.isInside(minX: low.x, minY: low.y, maxX: high.x, maxY: high.y)
                            ? points : clip.ring(points)
                        let ring = Self.rounded(cut, closed: true)
                        let roundedArea = Self.doubleArea(ring)
                        guard ring.count >= 3, roundedArea != 0, (roundedArea > 0) == (area > 0) else { continue }
                        if area > 0 {
                            exteriorKept = true
                        } else if !exteriorKept {
                            continue
                        }
                        // Without its corridors (``RingBridges``): the pieces turning as the ring did first, any
                        // turning the other way (a hole the corridors closed) after them.
                        let pieces = RingBridges.split(ring).map { ($0, Self.doubleArea($0)) }.filter { $0.1 != 0 }
                        parts += pieces.filter { ($0.1 > 0) == (area > 0) }.map(\.0)
                        parts += pieces.filter { ($0.1 > 0) != (area > 0) }.map(\.0)
                    } else {
                        guard !clip.isOutside(minX: low.x, minY: low.y, maxX: high.x, maxY: high.y) else {
                            continue
                        }
                        let points = path.points.map(local)
                        let pieces =
                            clip.isInside(minX: low.x, minY: low.y, maxX: high.x, maxY: high.y)
                            ? [points] : clip.line(points)
                        for piece in pieces {
                            let line = Self.rounded(piece, closed: false)
                            if line.count >= 2 { parts.append(line) }
                        }
                    }
                }
            }
            guard !parts.isEmpty else { continue }
            var writer = GeometryLayerWriter(name: Self.layerNames[layer.rawValue], extent: extent)
            writer.add(polygon ? .polygon : .lineString, parts: parts)
            Self.append(layer: writer, to: &output)
        }
        var placeLayer = GeometryLayerWriter(name: "places", extent: extent)
        for rank in placeRanks(z: z, x: x, y: y) {
            let place = places[rank]
            guard Self.shows(minZoom: place.minZoom, zoom: z) else { break }
            let point = local((place.x, place.y))
            guard point.x >= 0, point.x < units, point.y >= 0, point.y < units else { continue }
            placeLayer.add(
                .point, parts: [[(Int32(point.x.rounded(.down)), Int32(point.y.rounded(.down)))]],
                properties: [
                    ("name", .string(place.name)), ("min_zoom", VectorTileValue(number: place.minZoom)),
                    ("rank", .uint(UInt64(rank))),
                ])
        }
        if placeLayer.count > 0 { Self.append(layer: placeLayer, to: &output) }
        return output.isEmpty ? nil : Data(output)
    }

    /// The metadata archives and TileJSON carry: every layer, zooms, the whole world.
    public func metadata() -> TilesetMetadata {
        var metadata = TilesetMetadata(
            name: "Declutter basemap",
            description: "Natural Earth land, lakes, rivers, borders and place names",
            attribution: "Made with Natural Earth",
            layer: "land", fields: [:], minZoom: zooms.lowerBound, maxZoom: zooms.upperBound,
            bounds: TileBounds(west: -180, south: -85.0511, east: 180, north: 85.0511),
            center: .init(longitude: 0, latitude: 0, zoom: zooms.lowerBound))
        for name in Self.layerNames.dropFirst() {
            metadata.additionalLayers[name] =
                name == "places" ? ["name": .string, "min_zoom": .number, "rank": .number] : [:]
        }
        return metadata
    }

    /// A layer as the tile's field 3.
    private static func append(layer: GeometryLayerWriter, to output: inout [UInt8]) {
        var tile = ProtobufWriter(capacity: 0)
        tile.writeBytesField(3, layer.bytes)
        output.append(contentsOf: tile.bytes)
    }

    /// The points rounded to whole units, a point equal to the one before dropped (and, for a ring, a last point
    /// equal to the first).
    static func rounded(_ points: [(x: Double, y: Double)], closed: Bool) -> [(x: Int32, y: Int32)] {
        var result: [(x: Int32, y: Int32)] = []
        result.reserveCapacity(points.count)
        for point in points {
            let rounded = (x: Int32(point.x.rounded()), y: Int32(point.y.rounded()))
            if let last = result.last, last == rounded { continue }
            result.append(rounded)
        }
        if closed, result.count > 1, let first = result.first, let last = result.last, first == last {
            result.removeLast()
        }
        return result
    }

    /// Twice the signed area of a ring of whole units.
    static func doubleArea(_ ring: [(x: Int32, y: Int32)]) -> Int64 {
        guard var previous = ring.last else { return 0 }
        var sum: Int64 = 0
        for point in ring {
            sum += Int64(previous.x) * Int64(point.y) - Int64(point.x) * Int64(previous.y)
            previous = point
        }
        return sum
    }
}
