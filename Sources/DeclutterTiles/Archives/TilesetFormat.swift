import DeclutterClustering
import DeclutterSupport
import Foundation

/// The archive a tileset is written to, picked from the output's name.
public enum TilesetFormat: String, Sendable, Hashable, CaseIterable {
    /// MBTiles 1.3: SQLite with gzip-compressed tiles in TMS rows, as tippecanoe writes it.
    case mbtiles
    /// PMTiles v3: one file a map reads from object storage or a CDN by range requests, with no tile server.
    case pmtiles
    /// A folder of `{z}/{x}/{y}.pbf` (not compressed) with `tiles.json` (TileJSON 3.0) beside them.
    case folder

    /// The format of `path`: `.mbtiles`, `.pmtiles`, else a folder.
    ///
    /// - Throws: ``OutputError`` when the name ends in the extension of another kind of file (`.zip`, `.json`, …), when
    /// a
    /// file already exists at `path` with another extension (it is not a folder of tiles, and replacing it by one would
    ///   lose it), or when a folder is already there.
    public init(path: String) throws {
        let pathExtension = URL(fileURLWithPath: path).pathExtension.lowercased()
        switch pathExtension {
        case "mbtiles": self = .mbtiles
        case "pmtiles": self = .pmtiles
        case _ where Self.fileExtensions.contains(pathExtension):
            throw OutputError(
                path: path,
                reason:
                    "\".\(pathExtension)\" is not a tileset format; tiles go to a .mbtiles or .pmtiles file, or to a new folder"
            )
        default:
            switch FileSystem.item(atPath: path) {
            case .file:
                throw OutputError(
                    path: path, reason: "is a file; tiles go to a .mbtiles or .pmtiles file, or to a new folder")
            case .folder:
                throw OutputError(path: path, reason: "the folder already exists; remove it or name a new one")
            case nil: self = .folder
            }
        }
    }

    /// Extensions that name a file of another kind: `tiles.zip` or `tiles.json` asks for a file, which a folder of that
    /// name would not be, so they are refused rather than written as a folder.
    static let fileExtensions: Set<String> = [
        "zip", "tar", "gz", "tgz", "json", "geojson", "pbf", "mvt", "sqlite", "sqlite3", "db",
        "mbtile", "pmtile", "png", "svg", "pdf", "csv",
    ]

    /// A writer for `path` in the format its name asks for.
    ///
    /// - Parameters:
    ///   - compressionLevel: gzip's level for MBTiles and PMTiles tiles, 0…9 (default 6, tippecanoe's).
    ///   - baseURL: Where a folder will be served from, for its `tiles.json` (``FolderTilesetWriter/baseURL``).
    public static func writer(for path: String, compressionLevel: Int32 = 6, baseURL: String? = nil) throws
        -> any TilesetWriter
    {
        switch try TilesetFormat(path: path) {
        case .mbtiles: try MBTilesWriter(path: path, compressionLevel: compressionLevel)
        case .pmtiles: try PMTilesWriter(path: path, compressionLevel: compressionLevel)
        case .folder: try FolderTilesetWriter(path: path, baseURL: baseURL)
        }
    }
}
