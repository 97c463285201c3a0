import DeclutterSupport
import Foundation
import Testing

@testable import DeclutterTiles

@Suite struct TilesetFormatTests {
    /// The extension picks the format; anything else is a new folder.
    @Test func pickedFromPath() throws {
        let folder = try TestFolder()
        #expect(try TilesetFormat(path: folder.file("a.mbtiles")) == .mbtiles)
        #expect(try TilesetFormat(path: folder.file("a.PMTiles")) == .pmtiles)
        #expect(try TilesetFormat(path: folder.file("tiles")) == .folder)
        #expect(try TilesetFormat.writer(for: folder.file("b.pmtiles")) is PMTilesWriter)
        #expect(try TilesetFormat.writer(for: folder.file("b.mbtiles")) is MBTilesWriter)
        #expect(try TilesetFormat.writer(for: folder.file("b")) is FolderTilesetWriter)
    }

    /// An existing file of another kind is refused rather than replaced by a folder.
    @Test func refusesOtherExistingFile() throws {
        let folder = try TestFolder()
        let path = folder.file("notes.txt")
        try Data("keep".utf8).write(to: URL(fileURLWithPath: path))
        #expect(
            throws: OutputError(
                path: path, reason: "is a file; tiles go to a .mbtiles or .pmtiles file, or to a new folder")
        ) {
            _ = try TilesetFormat(path: path)
        }
        #expect(FileManager.default.contents(atPath: path) == Data("keep".utf8))
    }

    /// A name with another file's extension asks for a file: `tiles.zip` was written as a folder named `tiles.zip`.
    @Test func refusesAnotherFilesExtension() throws {
        let folder = try TestFolder()
        for name in ["tiles.zip", "tiles.JSON", "clusters.mvt"] {
            let path = folder.file(name)
            let pathExtension = URL(fileURLWithPath: name).pathExtension.lowercased()
            #expect(
                throws: OutputError(
                    path: path,
                    reason:
                        "\".\(pathExtension)\" is not a tileset format; tiles go to a .mbtiles or .pmtiles file, or to a new folder"
                )
            ) {
                _ = try TilesetFormat.writer(for: path)
            }
            #expect(!FileManager.default.fileExists(atPath: path))
        }
        #expect(try TilesetFormat(path: folder.file("tiles.v2")) == .folder)
    }
}
