import CSQLite
import DeclutterClustering
import DeclutterDeflate
import DeclutterStyle
import DeclutterSupport
import Foundation

/// Writes an MBTiles 1.3 file as tippecanoe does: the `metadata` and `tiles` tables with their unique indexes,
/// gzip-compressed MVT tiles in TMS rows (row 0 at the south), and `json` metadata with `vector_layers`.
///
/// The database is a temporary file beside the output, written in one transaction through one prepared statement
/// with SQLite's journal and syncs off (a crash loses only the temporary), and renamed onto the output by
/// ``finish(_:)``. SQLite's page cache bounds the memory, however many tiles there are.
public final class MBTilesWriter: TilesetWriter {
    public let path: String
    public private(set) var tileCount = 0

    private let temporary: TemporaryOutput
    private var database: OpaquePointer?
    private var insert: OpaquePointer?
    private let compressors: GzipBatch

    /// Starts a file at `path`; nothing appears there until ``finish(_:)``.
    ///
    /// - Parameter compressionLevel: gzip's level for tiles, 0…9 (tippecanoe's 6 by default).
    /// - Throws: ``OutputError`` when `path` is a folder, its folder cannot be written, or SQLite fails.
    public init(path: String, compressionLevel: Int32 = 6) throws {
        self.path = path
        try Gzip.checkArchive(at: path, level: compressionLevel)
        compressors = try GzipBatch(level: compressionLevel)
        temporary = try TemporaryOutput(for: path)
        guard
            sqlite3_open_v2(
                temporary.path, &database, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
                == SQLITE_OK
        else {
            let reason = database.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            close()
            throw OutputError(path: path, reason: "SQLite cannot create the file (\(reason))")
        }
        do {
            try execute(
                """
                PRAGMA synchronous = OFF;
                PRAGMA journal_mode = OFF;
                PRAGMA locking_mode = EXCLUSIVE;
                CREATE TABLE metadata (name text, value text);
                CREATE UNIQUE INDEX name ON metadata (name);
                CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);
                CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
                BEGIN;
                """, doing: "creating the tables")
            insert = try prepare(
                "INSERT INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?1, ?2, ?3, ?4)")
        } catch {
            cancel()
            throw error
        }
    }

    deinit { cancel() }

    public func add(_ tiles: [EncodedTile]) throws {
        guard let insert else { throw OutputError(path: path, reason: "the file is already finished or cancelled") }
        do {
            for tile in tiles where !tile.data.isEmpty { try tile.validate(in: path) }
            for (tile, compressed) in zip(tiles, try compressors.compress(tiles.map(\.data))) where !tile.data.isEmpty {
                sqlite3_reset(insert)
                sqlite3_bind_int(insert, 1, Int32(tile.z))
                sqlite3_bind_int(insert, 2, Int32(tile.x))
                // MBTiles counts rows from the south (TMS).
                sqlite3_bind_int(insert, 3, Int32((1 << tile.z) - 1 - tile.y))
                let status = compressed.withUnsafeBytes { bytes in
                    // SQLITE_TRANSIENT: SQLite copies the bytes before the closure returns.
                    sqlite3_bind_blob(
                        insert, 4, bytes.baseAddress, Int32(bytes.count),
                        unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                    return sqlite3_step(insert)
                }
                guard status == SQLITE_DONE else {
                    if status == SQLITE_CONSTRAINT {
                        throw OutputError(path: path, reason: "tile \(tile.name) was given twice")
                    }
                    throw failure(status, doing: "writing tile \(tile.name)")
                }
                tileCount += 1
            }
        } catch {
            cancel()
            throw (error as? OutputError) ?? OutputError(path: path, reason: "\(error)")
        }
    }

    public func finish(_ metadata: TilesetMetadata, companions: [(name: String, data: Data)]) throws {
        guard insert != nil else { throw OutputError(path: path, reason: "the file is already finished or cancelled") }
        do {
            try metadata.validate(in: path)
            try insertMetadata(metadata)
            try execute("COMMIT", doing: "committing")
            guard close() else { throw OutputError(path: path, reason: "SQLite could not close the file") }
            let besides = try CompanionFiles(
                companions, in: URL(fileURLWithPath: path).deletingLastPathComponent().path)
            try temporary.commit()
            try besides.commit()
        } catch {
            cancel()
            throw error
        }
    }

    /// Writes the metadata rows through a statement of their own, finalized before the commit and close.
    private func insertMetadata(_ metadata: TilesetMetadata) throws {
        let statement = try prepare("INSERT INTO metadata (name, value) VALUES (?1, ?2)")
        defer { sqlite3_finalize(statement) }
        for (name, value) in Self.metadataRows(metadata) {
            sqlite3_reset(statement)
            sqlite3_bind_text(statement, 1, name, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            sqlite3_bind_text(statement, 2, value, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            let status = sqlite3_step(statement)
            guard status == SQLITE_DONE else { throw failure(status, doing: "writing the metadata") }
        }
    }

    public func cancel() {
        close()
        temporary.discard()
    }

    /// The metadata rows MBTiles 1.3 names for a vector tileset, in the order tippecanoe writes them.
    static func metadataRows(_ metadata: TilesetMetadata) -> [(String, String)] {
        let text = TilesetMetadata.text
        let bounds = metadata.bounds
        var rows = [
            ("name", metadata.name),
            ("description", metadata.description),
            ("version", "2"),
            ("minzoom", String(metadata.minZoom)),
            ("maxzoom", String(metadata.maxZoom)),
            ("center", "\(text(metadata.center.longitude)),\(text(metadata.center.latitude)),\(metadata.center.zoom)"),
            ("bounds", "\(text(bounds.west)),\(text(bounds.south)),\(text(bounds.east)),\(text(bounds.north))"),
            ("type", "overlay"),
            ("format", "pbf"),
        ]
        if let attribution = metadata.attribution { rows.append(("attribution", attribution)) }
        // swift-format-ignore: AlwaysUseLowerCamelCase
        // The name is the key MBTiles' json row holds.
        struct JSONRow: Encodable { var vector_layers: [TilesetMetadata.VectorLayer] }
        let json = TilesetMetadata.json(JSONRow(vector_layers: metadata.vectorLayers))
        rows.append(("json", String(decoding: json, as: UTF8.self)))
        return rows
    }

    private func execute(_ sql: String, doing action: String) throws {
        let status = sqlite3_exec(database, sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw failure(status, doing: action) }
    }

    private func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(database, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else { throw failure(status, doing: "preparing a statement") }
        return statement
    }

    /// An error naming the output, with a full disk or a read-only folder said in words.
    private func failure(_ status: Int32, doing action: String) -> OutputError {
        switch status & 0xff {
        case SQLITE_FULL: return TemporaryOutput.error(path, ENOSPC, doing: action)
        case SQLITE_READONLY, SQLITE_CANTOPEN: return TemporaryOutput.error(path, EACCES, doing: action)
        default:
            let message = database.map { String(cString: sqlite3_errmsg($0)) } ?? "SQLite status \(status)"
            return OutputError(path: path, reason: "\(message) (\(action))")
        }
    }

    /// Frees the statement and the connection; the temporary stays until committed or discarded.
    ///
    /// - Returns: whether SQLite closed the file (it refuses while a statement is still open).
    @discardableResult
    private func close() -> Bool {
        sqlite3_finalize(insert)
        insert = nil
        let status = sqlite3_close(database)
        database = nil
        return status == SQLITE_OK
    }
}
