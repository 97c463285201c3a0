import CSQLiteFuzz
import Foundation

/// Writes an MBTiles file whose `metadata` table holds the `name=value` lines of a fuzz input (and an empty `tiles`
/// table), so that the fuzzer varies what MBTilesSource reads from the metadata rather than SQLite's file format,
/// whose code is not instrumented and so gives the fuzzer nothing to follow.
enum MetadataDatabase {
    /// Writes the file at `path` (replacing any), returning false when SQLite cannot.
    static func write(_ text: String, to path: String) -> Bool {
        try? FileManager.default.removeItem(atPath: path)
        var database: OpaquePointer?
        defer { sqlite3_close(database) }
        guard sqlite3_open(path, &database) == SQLITE_OK, let database,
              sqlite3_exec(database, """
                  CREATE TABLE metadata (name TEXT, value TEXT);
                  CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
                  """, nil, nil, nil) == SQLITE_OK else { return false }
        var insert: OpaquePointer?
        guard sqlite3_prepare_v2(database, "INSERT INTO metadata VALUES (?1, ?2)", -1, &insert, nil) == SQLITE_OK else { return false }
        defer { sqlite3_finalize(insert) }
        // SQLite copies the text when bound with this destructor; Swift's strings live only for the call.
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            sqlite3_reset(insert)
            sqlite3_bind_text(insert, 1, String(parts[0]), -1, transient)
            sqlite3_bind_text(insert, 2, parts.count > 1 ? String(parts[1]) : "", -1, transient)
            guard sqlite3_step(insert) == SQLITE_DONE else { return false }
        }
        return true
    }
}
