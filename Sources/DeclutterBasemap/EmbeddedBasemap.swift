import CDeclutterResources
import Foundation

/// The basemap compiled into the binary, made with Natural Earth (public domain) by `Tools/basemap/build.py`: 1:10m
/// land, lakes, rivers and country borders, 1:50m state and province lines and 7,343 place names, simplified per zoom
/// band (0–2, 3–4, 5–6, 7–8, 9–10) and cut into grid cells. Static maps draw it; tilesets carry it as vector tiles.
public enum EmbeddedBasemap {
    /// The attribution a map that uses it shows: the credit Natural Earth asks for.
    public static let attribution = "Made with Natural Earth"

    /// The package-relative path of the embedded file, as the resources name it.
    public static let path = "Sources/CDeclutterResources/Basemap/basemap.bin"

    /// The file, its index read once per process, keeping up to ``cellBudget`` bytes of decoded cells.
    ///
    /// - Throws: ``BasemapError`` when the build lacks it or its index does not decode.
    public static func file() throws -> BasemapFile {
        try loaded.get()
    }

    /// The bytes of decoded cells the process's file keeps: 16 MiB, of the 40 MB that every band of the whole world
    /// decodes to, so that a server panning the world reaches its bound within minutes, not hours.
    public static let cellBudget = 16 << 20

    /// The file opened anew, with caches of its own and no bound on them: for a job that reads every cell (a tileset
    /// of the whole basemap), so that the cells it decodes are let go with it instead of staying with the process's
    /// file.
    ///
    /// - Throws: ``BasemapError`` as ``file()``.
    public static func openedAlone() throws -> BasemapFile {
        try opened(cellBudget: .max)
    }

    private static func opened(cellBudget: Int) throws -> BasemapFile {
        guard let data = bytes() else { throw BasemapError("basemap.bin is missing from this build") }
        return try BasemapFile(data, cellBudget: cellBudget)
    }

    private static let loaded: Result<BasemapFile, Error> = Result { try opened(cellBudget: cellBudget) }

    /// The embedded bytes, without a copy: they live in the binary's read-only data for the life of the process.
    private static func bytes() -> Data? {
        for index in 0..<declutter_resource_count() {
            guard let name = declutter_resource_name(index), String(cString: name) == path else { continue }
            var count = 0
            guard let bytes = declutter_resource_bytes(index, &count) else { return nil }
            return Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: bytes), count: count, deallocator: .none)
        }
        return nil
    }
}
