import DeclutterSupport
import DeclutterTiles
import Foundation
import Testing

@Suite struct FolderTilesetWriterTests {
    /// 341 tiles as `{z}/{x}/{y}.pbf` with their bytes as given (not compressed), and `tiles.json` beside them.
    @Test func layoutAndTileJSON() throws {
        let folder = try TestFolder()
        let path = folder.file("tiles")
        let tiles = SyntheticTiles.small()
        let writer = try FolderTilesetWriter(path: path)
        try writer.add(SyntheticTiles.shuffled(tiles) + [EncodedTile(z: 5, x: 0, y: 0, data: Data())])
        // Nothing at the output until finished, only the hidden temporary folder.
        #expect(try folder.contents().count == 1 && folder.contents().first?.hasPrefix(".tiles.") == true)
        try writer.finish(SyntheticTiles.metadata)
        #expect(try folder.contents() == ["tiles"])

        #expect(
            try FileManager.default.contentsOfDirectory(atPath: path).sorted() == [
                "0", "1", "2", "3", "4", "tiles.json",
            ])
        #expect(try FileManager.default.contentsOfDirectory(atPath: path + "/4/7").count == 16)
        #expect(FileManager.default.fileExists(atPath: path + "/5") == false)
        for tile in tiles {
            #expect(FileManager.default.contents(atPath: "\(path)/\(tile.z)/\(tile.x)/\(tile.y).pbf") == tile.data)
        }

        let json = try #require(FileManager.default.contents(atPath: path + "/tiles.json"))
        #expect(
            String(decoding: json, as: UTF8.self) == """
                {"attribution":"© Test","bounds":[-122.5,37.25,-121.75,38],"center":[-122.125,37.625,3],"description":"Clustered points",\
                "maxzoom":4,"minzoom":0,"name":"clusters","scheme":"xyz","tilejson":"3.0.0","tiles":["{z}/{x}/{y}.pbf"],\
                "vector_layers":[{"description":"","fields":{"category":"String","cluster":"Boolean","count":"Number"},"id":"clusters","maxzoom":4,"minzoom":0}]}
                """)
    }

    /// An existing output is refused; a failed run and a cancelled one leave nothing.
    @Test func refusalsAndErrors() throws {
        let folder = try TestFolder()
        let path = folder.file("tiles")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        #expect(throws: OutputError(path: path, reason: "the folder already exists; remove it or name a new one")) {
            _ = try FolderTilesetWriter(path: path)
        }
        try FileManager.default.removeItem(atPath: path)

        let writer = try FolderTilesetWriter(path: path)
        try writer.add(SyntheticTiles.small())
        #expect(throws: OutputError(path: path, reason: "tile 4/3/2 was given twice")) {
            try writer.add([EncodedTile(z: 4, x: 3, y: 2, data: Data([1]))])
        }
        #expect(try folder.contents() == [])

        let cancelled = try FolderTilesetWriter(path: path)
        try cancelled.add(SyntheticTiles.small())
        cancelled.cancel()
        #expect(try folder.contents() == [])
    }
}
