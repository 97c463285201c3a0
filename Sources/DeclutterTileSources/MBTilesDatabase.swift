import CSQLite
import DeclutterGeometry
import Foundation
import Synchronization

/// An MBTiles file opened read-only: its `metadata` table and its tiles by XYZ address, whatever their format.
///
/// ``MBTilesSource`` draws raster tiles from one; `declutter serve --tileset` serves vector tiles from one. The
/// connection is used by one thread at a time.
public final class MBTilesDatabase: Sendable {
    /// The file's path, as given.
    public let path: String
    /// The `metadata` table as name → value (empty when the table is missing).
    public let metadata: [String: String]
    /// The database and its prepared tile query.
    private let connection: Mutex<Connection>

    /// Opens an MBTiles file read-only.
    ///
    /// - Throws: ``TileError/invalidSource(source:reason:)`` when the file is missing, not SQLite, or has no `tiles`
    /// table.
    public init(path: String) throws {
        self.path = path
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
        metadata = Self.metadata(handle)
        connection = Mutex(Connection(database: handle, statement: prepared))
    }

    deinit {
        connection.withLock { connection in
            sqlite3_finalize(connection.statement)
            sqlite3_close(connection.database)
        }
    }

    /// The stored bytes of tile `z`/`x`/`y` (XYZ: row 0 at the north), or nil when the file has none.
    ///
    /// - Throws: ``TileFailure`` when SQLite fails to read it.
    public func tileData(z: Int, x: Int, y: Int) throws(TileFailure) -> Data? {
        try connection.withLock { connection throws(TileFailure) -> Data? in
            let statement = connection.statement
            sqlite3_reset(statement)
            sqlite3_bind_int(statement, 1, Int32(z))
            sqlite3_bind_int(statement, 2, Int32(x))
            // MBTiles counts rows from the south (TMS).
            sqlite3_bind_int(statement, 3, Int32((1 << z) - 1 - y))
            let step = sqlite3_step(statement)
            if step == SQLITE_ROW, let bytes = sqlite3_column_blob(statement, 0) {
                return Data(bytes: bytes, count: Int(sqlite3_column_bytes(statement, 0)))
            } else if step == SQLITE_ROW || step == SQLITE_DONE {
                return nil
            }
            throw TileFailure(
                "reading tile \(z)/\(x)/\(y) of \(path) failed: \(String(cString: sqlite3_errmsg(connection.database)))"
            )
        }
    }

    /// The SQLite handles, which the mutex hands to one thread at a time.
    private struct Connection {
        let database: OpaquePointer
        let statement: OpaquePointer
    }

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
}
