import CSQLite
import DeclutterClustering
import DeclutterDeflate
import DeclutterStyle
import DeclutterSupport
import DeclutterTiles
import Foundation
import Testing

@Suite struct MBTilesWriterTests {
    /// Reads every row of a query as strings or blobs.
    private func rows(_ path: String, _ sql: String) throws -> [[Any]] {
        var database: OpaquePointer?
        guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let database else {
            throw PMTilesReader.ReadError(description: "cannot open \(path)")
        }
        defer { sqlite3_close(database) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw PMTilesReader.ReadError(description: String(cString: sqlite3_errmsg(database)))
        }
        defer { sqlite3_finalize(statement) }
        var result: [[Any]] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            result.append(
                (0..<sqlite3_column_count(statement)).map { column -> Any in
                    switch sqlite3_column_type(statement, column) {
                    case SQLITE_INTEGER: Int(sqlite3_column_int64(statement, column))
                    case SQLITE_BLOB:
                        Data(
                            bytes: sqlite3_column_blob(statement, column),
                            count: Int(sqlite3_column_bytes(statement, column)))
                    default: sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
                    }
                })
        }
        return result
    }

    /// 341 tiles in shuffled batches: every one in its TMS row, gzip-compressed, and the metadata rows tippecanoe
    /// writes.
    @Test func tilesAndMetadata() throws {
        let folder = try TestFolder()
        let path = folder.file("clusters.mbtiles")
        let tiles = SyntheticTiles.small()
        let writer = try MBTilesWriter(path: path)
        let shuffled = SyntheticTiles.shuffled(tiles)
        try writer.add(Array(shuffled[..<200]))
        try writer.add(Array(shuffled[200...]) + [EncodedTile(z: 5, x: 1, y: 1, data: Data())])
        try writer.finish(SyntheticTiles.metadata)
        #expect(writer.tileCount == 341)
        #expect(try folder.contents() == ["clusters.mbtiles"])

        #expect(try rows(path, "SELECT count(*) FROM tiles").first?.first as? Int == 341)
        // Zoom 3, x 1, y 0 (XYZ, the top row) is TMS row 8 − 1 − 0 = 7.
        let blob = try #require(
            try rows(path, "SELECT tile_data FROM tiles WHERE zoom_level = 3 AND tile_column = 1 AND tile_row = 7")
                .first?.first as? Data)
        #expect(blob.prefix(2) == Data([0x1f, 0x8b]))
        #expect(try Gzip.decompress(blob) == SyntheticTiles.payload(z: 3, x: 1, y: 0))
        for row in try rows(path, "SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles") {
            let (z, x, row, data) = (
                row[0] as? Int ?? -1, row[1] as? Int ?? -1, row[2] as? Int ?? -1, row[3] as? Data ?? Data()
            )
            let original = try #require(tiles.first { $0.z == z && $0.x == x && $0.y == (1 << z) - 1 - row })
            #expect(try Gzip.decompress(data) == original.data)
        }

        let metadata = Dictionary(
            uniqueKeysWithValues: try rows(path, "SELECT name, value FROM metadata").map {
                ($0[0] as? String ?? "", $0[1] as? String ?? "")
            })
        #expect(
            metadata == [
                "name": "clusters", "description": "Clustered points", "version": "2", "minzoom": "0", "maxzoom": "4",
                "center": "-122.125,37.625,3", "bounds": "-122.5,37.25,-121.75,38", "type": "overlay", "format": "pbf",
                "attribution": "© Test",
                "json":
                    #"{"vector_layers":[{"description":"","fields":{"category":"String","cluster":"Boolean","count":"Number"},"id":"clusters","maxzoom":4,"minzoom":0}]}"#,
            ])
        // The schema tippecanoe writes, unique indexes included.
        let schema = try rows(path, "SELECT name FROM sqlite_master ORDER BY name").compactMap { $0.first as? String }
        #expect(schema == ["metadata", "name", "tile_index", "tiles"])
    }

    /// A tile given twice, or off the grid, is refused with the tile named, and no file is left.
    @Test func errorsLeaveNothingBehind() throws {
        let folder = try TestFolder()
        let path = folder.file("bad.mbtiles")
        let writer = try MBTilesWriter(path: path)
        try writer.add([EncodedTile(z: 2, x: 1, y: 3, data: Data([1]))])
        #expect(try folder.contents().count == 1)
        #expect(throws: OutputError(path: path, reason: "tile 2/1/3 was given twice")) {
            try writer.add([EncodedTile(z: 2, x: 1, y: 3, data: Data([2]))])
        }
        #expect(try folder.contents() == [])

        let offGrid = try MBTilesWriter(path: path)
        #expect(
            throws: OutputError(
                path: path, reason: "tile 31/0/0 is outside the tile grid (zoom 0…30, x and y below 2^zoom)")
        ) {
            try offGrid.add([EncodedTile(z: 31, x: 0, y: 0, data: Data([1]))])
        }
        #expect(try folder.contents() == [])

        var metadata = SyntheticTiles.metadata
        metadata.maxZoom = 31
        let badMetadata = try MBTilesWriter(path: path)
        #expect(
            throws: OutputError(path: path, reason: "the zoom range 0…31 is not within 0…30 with minZoom ≤ maxZoom")
        ) {
            try badMetadata.finish(metadata)
        }
        #expect(try folder.contents() == [])
    }

    /// A folder that is not writable is named in the error before any tile is made.
    @Test func unwritableFolder() throws {
        let folder = try TestFolder()
        let missing = folder.file("missing/out.mbtiles")
        #expect(throws: OutputError(path: missing, reason: "the folder \(folder.file("missing")) does not exist")) {
            _ = try MBTilesWriter(path: missing)
        }
    }
}
