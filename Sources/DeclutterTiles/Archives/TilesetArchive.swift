import DeclutterTileSources
import Foundation

/// A tileset archive of vector tiles opened for serving: a PMTiles v3 file or an MBTiles file, whichever made it
/// (`declutter tiles`, tippecanoe, Planetiler). Tiles come out as stored, so that a server can pass gzip on as it is;
/// the file's bytes themselves can be read by range, for pages that read a PMTiles archive with the pmtiles protocol.
public final class TilesetArchive: Sendable {
    /// The two archive formats, by file extension.
    public enum Format: String, Sendable {
        case pmtiles, mbtiles
    }

    /// A tile as the archive stores it.
    public struct Tile: Sendable, Hashable {
        /// The bytes.
        public var data: Data
        /// Whether they are gzip-compressed (PMTiles says so in its header; MBTiles tiles are told by their first
        /// bytes).
        public var isGzip: Bool

        /// Creates a tile from its bytes and whether they are gzip.
        public init(data: Data, isGzip: Bool) {
            self.data = data
            self.isGzip = isGzip
        }
    }

    /// The archive's path, as given.
    public let path: String
    public let format: Format
    /// The file, for byte ranges.
    public let file: ReadOnlyFile
    /// The zooms with tiles.
    public let zooms: ClosedRange<Int>
    /// The area the tiles cover.
    public let bounds: TileBounds
    /// Where a map of the tiles opens.
    public let center: TilesetMetadata.Center
    /// The archive's `name`, `description` and `attribution`, if it states them.
    public let name: String?
    public let description: String?
    public let attribution: String?
    /// The `vector_layers` array of its metadata as JSON, if any: the layers a style can draw.
    public let vectorLayers: Data?
    private let reader: Reader

    private enum Reader: Sendable {
        case pmtiles(PMTilesReader)
        case mbtiles(MBTilesDatabase)
    }

    /// Opens `path`, a `.pmtiles` or `.mbtiles` file.
    ///
    /// - Throws: ``TilesetArchiveError`` naming the file when it has another extension, cannot be read, or holds
    ///   other than vector tiles.
    public init(path: String) throws {
        self.path = path
        let fileExtension = URL(fileURLWithPath: path).pathExtension.lowercased()
        guard let format = Format(rawValue: fileExtension) else {
            throw TilesetArchiveError(
                "\(path): expected a .pmtiles or .mbtiles file, got \(fileExtension.isEmpty ? "no extension" : ".\(fileExtension)")"
            )
        }
        self.format = format
        file = try ReadOnlyFile(path: path)
        let metadata: [String: Any]
        switch format {
        case .pmtiles:
            let pmtiles = try PMTilesReader(file: file)
            reader = .pmtiles(pmtiles)
            metadata = (try? JSONSerialization.jsonObject(with: pmtiles.metadata)) as? [String: Any] ?? [:]
            let header = pmtiles.header
            zooms = Int(min(header.minZoom, header.maxZoom))...Int(max(header.minZoom, header.maxZoom))
            bounds = header.bounds
            center = header.center
        case .mbtiles:
            let database: MBTilesDatabase
            do {
                database = try MBTilesDatabase(path: path)
            } catch {
                throw TilesetArchiveError("\(error)")
            }
            reader = .mbtiles(database)
            let table = database.metadata
            if let format = table["format"], !["pbf", "mvt", "application/x-protobuf"].contains(format.lowercased()) {
                throw TilesetArchiveError("\(path): holds \(format.prefix(40)) tiles; expected vector tiles (pbf)")
            }
            var fields: [String: Any] = table
            if let json = table["json"], let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)),
                let extra = object as? [String: Any]
            {
                fields.merge(extra) { _, new in new }
            }
            metadata = fields
            let low = table["minzoom"].flatMap { Int($0) } ?? 0, high = table["maxzoom"].flatMap { Int($0) } ?? 14
            zooms = min(30, max(0, min(low, high)))...min(30, max(0, max(low, high)))
            let edges = (table["bounds"] ?? "").split(separator: ",").compactMap {
                Double($0.trimmingCharacters(in: .whitespaces))
            }
            bounds =
                edges.count == 4
                ? TileBounds(west: edges[0], south: edges[1], east: edges[2], north: edges[3]) : .world
            let middle = (table["center"] ?? "").split(separator: ",").compactMap {
                Double($0.trimmingCharacters(in: .whitespaces))
            }
            center =
                middle.count == 3
                ? TilesetMetadata.Center(longitude: middle[0], latitude: middle[1], zoom: Int(middle[2]))
                : TilesetMetadata.Center(
                    longitude: (bounds.west + bounds.east) / 2, latitude: (bounds.south + bounds.north) / 2,
                    zoom: zooms.lowerBound)
        }
        name = metadata["name"] as? String
        description = metadata["description"] as? String
        attribution = metadata["attribution"] as? String
        vectorLayers = (metadata["vector_layers"] as? [Any]).flatMap {
            try? JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys, .withoutEscapingSlashes])
        }
    }

    /// Tile `z`/`x`/`y` (XYZ: row 0 at the north) as stored, or nil when the archive has none.
    ///
    /// - Throws: ``TilesetArchiveError`` when the archive cannot be read there.
    public func tile(z: Int, x: Int, y: Int) throws -> Tile? {
        switch reader {
        case .pmtiles(let pmtiles):
            return try pmtiles.tile(z: z, x: x, y: y).map {
                Tile(data: $0, isGzip: pmtiles.header.tileCompression == PMTilesHeader.gzip)
            }
        case .mbtiles(let database):
            let data: Data?
            do {
                data = try database.tileData(z: z, x: x, y: y)
            } catch {
                throw TilesetArchiveError(error.reason)
            }
            return data.map { Tile(data: $0, isGzip: $0.starts(with: [0x1F, 0x8B])) }
        }
    }

    /// TileJSON 3.0.0 for the archive's tiles at `tiles` (absolute URL templates), with its zooms, bounds, centre,
    /// name, attribution and vector layers.
    public func tileJSON(tiles: [String]) -> Data {
        var object: [String: Any] = [
            "tilejson": "3.0.0", "tiles": tiles, "minzoom": zooms.lowerBound, "maxzoom": zooms.upperBound,
            "bounds": [bounds.west, bounds.south, bounds.east, bounds.north],
            "center": [center.longitude, center.latitude, center.zoom], "scheme": "xyz",
        ]
        if let name { object["name"] = name }
        if let description { object["description"] = description }
        if let attribution { object["attribution"] = attribution }
        if let vectorLayers, let layers = try? JSONSerialization.jsonObject(with: vectorLayers) {
            object["vector_layers"] = layers
        }
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data("{}".utf8)
    }
}
