import DeclutterClustering
import DeclutterSupport
import Foundation

/// What a tileset says about itself: the metadata of MBTiles, PMTiles and TileJSON, with its one vector layer.
public struct TilesetMetadata: Sendable, Hashable {
    /// Where and at which zoom a map opens by default.
    public struct Center: Sendable, Hashable {
        public var longitude: Double
        public var latitude: Double
        public var zoom: Int

        /// Creates a centre from its position in degrees and its zoom.
        public init(longitude: Double, latitude: Double, zoom: Int) {
            self.longitude = longitude
            self.latitude = latitude
            self.zoom = zoom
        }
    }

    /// The tileset's name (MBTiles `name`, TileJSON `name`).
    public var name: String
    /// One line about what the tiles hold.
    public var description: String
    /// The attribution a map shows, if any (HTML or text, as the reader decides).
    public var attribution: String?
    /// The id of the vector layer every tile holds, as a style's `source-layer` names it.
    public var layer: String
    /// The layer's feature properties and their types.
    public var fields: [String: VectorTileFieldType]
    /// Further vector layers every tile may hold, by id, with their feature properties: none for a cluster tileset,
    /// the basemap's other layers for the basemap's.
    public var additionalLayers: [String: [String: VectorTileFieldType]] = [:]
    /// The lowest zoom with tiles.
    public var minZoom: Int
    /// The highest zoom with tiles.
    public var maxZoom: Int
    /// The area the tiles cover.
    public var bounds: TileBounds
    /// Where a map of the tiles opens.
    public var center: Center

    /// Creates metadata; `attribution` defaults to none.
    public init(
        name: String, description: String, attribution: String? = nil, layer: String,
        fields: [String: VectorTileFieldType],
        minZoom: Int, maxZoom: Int, bounds: TileBounds, center: Center
    ) {
        self.name = name
        self.description = description
        self.attribution = attribution
        self.layer = layer
        self.fields = fields
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.bounds = bounds
        self.center = center
    }

    /// TileJSON 3.0.0 for tiles at `tiles` (URL templates with `{z}`, `{x}` and `{y}`): what a folder tileset writes
    /// as `tiles.json` (with its relative template), and what a tile server publishes (with absolute ones).
    public func tileJSON(tiles: [String]) -> Data {
        Self.json(FolderTilesetWriter.tileJSON(self, tiles: tiles))
    }

    /// A TileJSON 3.0 `vector_layers` entry.
    struct VectorLayer: Encodable {
        var id: String
        var description: String
        var minzoom: Int
        var maxzoom: Int
        var fields: [String: VectorTileFieldType]
    }

    /// The `vector_layers` array all three formats carry: the layer, then any others by id.
    var vectorLayers: [VectorLayer] {
        [VectorLayer(id: layer, description: "", minzoom: minZoom, maxzoom: maxZoom, fields: fields)]
            + additionalLayers.keys.sorted().map {
                VectorLayer(
                    id: $0, description: "", minzoom: minZoom, maxzoom: maxZoom, fields: additionalLayers[$0] ?? [:])
            }
    }

    /// Encodes a value as JSON with sorted keys, so that the same metadata always gives the same bytes.
    static func json(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding dictionaries of strings and numbers cannot fail; an empty object keeps the archive valid if it did.
        return (try? encoder.encode(value)) ?? Data("{}".utf8)
    }

    /// A number as metadata strings write it: `-122.5`, `10`.
    static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// Refuses metadata no reader would accept, naming the field.
    func validate(in path: String) throws {
        guard (0...30).contains(minZoom), (0...30).contains(maxZoom), minZoom <= maxZoom else {
            throw OutputError(
                path: path, reason: "the zoom range \(minZoom)…\(maxZoom) is not within 0…30 with minZoom ≤ maxZoom")
        }
        guard !layer.isEmpty else { throw OutputError(path: path, reason: "the vector layer needs an id") }
        let sides = [bounds.west, bounds.south, bounds.east, bounds.north, center.longitude, center.latitude]
        guard sides.allSatisfy(\.isFinite), abs(bounds.west) <= 180, abs(bounds.east) <= 180,
            abs(bounds.south) <= 90, abs(bounds.north) <= 90
        else {
            throw OutputError(
                path: path, reason: "the bounds or centre are not within ±180° longitude and ±90° latitude")
        }
    }
}
