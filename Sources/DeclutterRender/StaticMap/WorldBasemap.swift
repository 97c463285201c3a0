import DeclutterCore
import Foundation

/// The embedded world basemap: Natural Earth's 110 m countries (public domain), drawn as land on the sea.
public enum WorldBasemap {
    /// The attribution printed on maps that use it.
    public static let attribution = "Natural Earth"

    /// The country polygons, read once from the package's resources.
    public static func shapes() throws -> [MapShape] {
        try loaded.get()
    }

    /// Every ring of every country in world units (Web Mercator 0…1), projected once rather than on every map.
    static func worldRings() throws -> [[(x: Double, y: Double)]] {
        try projected.get()
    }

    private static let projected: Result<[[(x: Double, y: Double)]], Error> = Result {
        try shapes().flatMap(\.rings).map { ring in
            ring.map { (WebMercator.x(longitude: $0.longitude), WebMercator.y(latitude: $0.latitude)) }
        }
    }

    private static let loaded: Result<[MapShape], Error> = Result {
        guard let data = BundledFiles.data("Sources/CDeclutterResources/Basemap/countries-110m.geojson") else {
            throw RenderError.unreadableImage(path: "countries-110m.geojson", reason: "the world basemap is missing from this build")
        }
        return try MapShape.read(geoJSON: data, file: "countries-110m.geojson")
    }
}
