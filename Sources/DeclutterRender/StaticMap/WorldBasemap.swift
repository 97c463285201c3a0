import DeclutterSupport
import Foundation

/// The embedded world basemap, made with Natural Earth (public domain): 1:10m land, lakes, rivers and country
/// borders, 1:50m state and province lines and 7,343 place names, simplified per zoom band (0–2, 3–4, 5–6, 7–8,
/// 9–10) and cut into grid cells by `Tools/basemap/build.py`.
public enum WorldBasemap {
    /// The attribution printed on maps that use it: the credit Natural Earth asks for.
    public static let attribution = "Made with Natural Earth"

    /// The highest zoom the data has detail for (1:10m is accurate to about a kilometre); above it the map shows
    /// the same land and water, without more detail.
    public static let detailZoom = 10.0

    /// The package-relative path of the embedded file.
    static let path = "Sources/CDeclutterResources/Basemap/basemap.bin"

    /// The one line to print when a map at `zoom` asks more of the basemap than it has; nil up to ``detailZoom``.
    public static func note(forZoom zoom: Double) -> String? {
        guard zoom > detailZoom + 1e-9 else { return nil }
        return "the embedded basemap has detail to zoom \(JSONValue.format(detailZoom)); this map is at zoom "
            + String(format: "%.1f", zoom) + "; add --tiles 'https://tile.openstreetmap.org/{z}/{x}/{y}.png' for more"
    }

    /// The file, its index read once per process.
    static func file() throws -> BasemapFile {
        try loaded.get()
    }

    private static let loaded: Result<BasemapFile, Error> = Result {
        guard let data = BundledFiles.data(path) else {
            throw RenderError.basemap("basemap.bin is missing from this build")
        }
        return try BasemapFile(data)
    }
}
