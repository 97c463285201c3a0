import DeclutterBasemap
import DeclutterSupport
import Foundation

/// The embedded world basemap, made with Natural Earth (public domain): 1:10m land, lakes, rivers and country
/// borders, 1:50m state and province lines and 7,343 place names, simplified per zoom band (0–2, 3–4, 5–6, 7–8,
/// 9–10) and cut into grid cells by `Tools/basemap/build.py`.
public enum WorldBasemap {
    /// The attribution printed on maps that use it: the credit Natural Earth asks for.
    public static let attribution = EmbeddedBasemap.attribution

    /// The highest zoom the data has detail for (1:10m is accurate to about a kilometre); above it the map shows
    /// the same land and water, without more detail.
    public static let detailZoom = 10.0

    /// The one line to print when a map at `zoom` asks more of the basemap than it has; nil up to ``detailZoom``.
    public static func note(forZoom zoom: Double) -> String? {
        guard zoom > detailZoom + 1e-9 else { return nil }
        return "the embedded basemap has detail to zoom \(JSONValue.format(detailZoom)); this map is at zoom "
            + String(format: "%.1f", zoom) + "; add --tiles 'https://tile.openstreetmap.org/{z}/{x}/{y}.png' for more"
    }

    /// The file, its index read once per process (``EmbeddedBasemap/file()``).
    static func file() throws -> BasemapFile {
        try EmbeddedBasemap.file()
    }
}
