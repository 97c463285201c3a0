import CSQLite
import DeclutterGeometry
import Foundation
import Synchronization

/// Tiles from an MBTiles file: an SQLite database with a `tiles` table in TMS rows (row 0 at the south) and a
/// `metadata` table naming attribution, zooms and format.
public final class MBTilesSource: TileSource, Sendable {
    /// The database and its prepared tile query, used by one thread at a time.
    private let connection: Mutex<Connection>
    public let name: String
    public let tilePixelSize: Int
    public let zoomRange: ClosedRange<Int>
    public let attribution: String?
    /// The tile format the metadata declares (`png`, `jpg`, `webp`, `pbf`), if any.
    public let format: String?

    /// Opens an MBTiles file read-only.
    ///
    /// - Throws: ``TileError/invalidSource(source:reason:)`` when the file is missing, not SQLite, or has no `tiles`
    /// table.
    public init(path: String, tilePixelSize: Int = 256) throws {
        name = path
        guard FileManager.default.fileExists(atPath: path) else {
            throw TileError.invalidSource(source: path, reason: "no such file")
        }
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let handle
        else {
            let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(handle)
            throw TileError.invalidSource(source: path, reason: reason)
        }
        var prepared: OpaquePointer?
        let query = "SELECT tile_data FROM tiles WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3"
        guard sqlite3_prepare_v2(handle, query, -1, &prepared, nil) == SQLITE_OK, let prepared else {
            let reason = String(cString: sqlite3_errmsg(handle))
            sqlite3_close(handle)
            throw TileError.invalidSource(source: path, reason: "not an MBTiles file (\(reason))")
        }
        let metadata = Self.metadata(handle)
        // Refused before the handles are stored: once every property is set, a throwing init runs deinit, which would
        // free them a second time.
        if let format = metadata["format"], !["png", "image/png"].contains(format.lowercased()) {
            sqlite3_finalize(prepared)
            sqlite3_close(handle)
            throw TileError.invalidSource(
                source: path, reason: "holds \(format) tiles; only PNG raster tiles can be drawn")
        }
        connection = Mutex(Connection(database: handle, statement: prepared))
        attribution = metadata["attribution"]
        format = metadata["format"]
        let low = metadata["minzoom"].flatMap { Int($0) } ?? 0, high = metadata["maxzoom"].flatMap { Int($0) } ?? 22
        // Both ends within 0…30, the zooms a tile key can shift by: a minzoom above 30 once made the range's lower
        // bound exceed its upper one, which traps.
        zoomRange = min(30, max(0, min(low, high)))...min(30, max(0, max(low, high)))
        self.tilePixelSize = tilePixelSize
    }

    deinit {
        connection.withLock { connection in
            sqlite3_finalize(connection.statement)
            sqlite3_close(connection.database)
        }
    }

    /// The SQLite handles, which the mutex hands to one thread at a time.
    private struct Connection {
        let database: OpaquePointer
        let statement: OpaquePointer
    }

    /// The `metadata` table as name → value (empty when the table is missing).
    private static func metadata(_ database: OpaquePointer) -> [String: String] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, "SELECT name, value FROM metadata", -1, &statement, nil) == SQLITE_OK,
            let statement
        else {
            return [:]
        }
        defer { sqlite3_finalize(statement) }
        var result: [String: String] = [:]
        while sqlite3_step(statement) == SQLITE_ROW {
            guard let name = sqlite3_column_text(statement, 0), let value = sqlite3_column_text(statement, 1) else {
                continue
            }
            result[String(cString: name)] = String(cString: value)
        }
        return result
    }

    public func fetch(_ keys: [TileKey]) throws -> [TileKey: Result<Data, TileFailure>] {
        connection.withLock { connection in
            var result: [TileKey: Result<Data, TileFailure>] = [:]
            let statement = connection.statement
            for key in keys {
                sqlite3_reset(statement)
                sqlite3_bind_int(statement, 1, Int32(key.z))
                sqlite3_bind_int(statement, 2, Int32(key.x))
                // MBTiles counts rows from the south (TMS).
                sqlite3_bind_int(statement, 3, Int32((1 << key.z) - 1 - key.y))
                let step = sqlite3_step(statement)
                if step == SQLITE_ROW, let bytes = sqlite3_column_blob(statement, 0) {
                    result[key] = .success(Data(bytes: bytes, count: Int(sqlite3_column_bytes(statement, 0))))
                } else if step == SQLITE_ROW || step == SQLITE_DONE {
                    result[key] = .failure(TileFailure("no tile \(key) in \(name)"))
                } else {
                    result[key] = .failure(
                        TileFailure(
                            "reading tile \(key) failed: \(String(cString: sqlite3_errmsg(connection.database)))"))
                }
            }
            return result
        }
    }
}
