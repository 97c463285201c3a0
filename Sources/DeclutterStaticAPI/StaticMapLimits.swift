/// The bounds a static-map URL is checked against before any work that grows with it (issue #24's safety rules).
///
/// Each limit is checked before the memory it protects is allocated: the URL's length first, then counts read by
/// scanning bytes (overlays, path vertices, GeoJSON positions and nesting) before anything is decoded into arrays.
public struct StaticMapLimits: Sendable, Hashable {
    /// Bytes in the path and query together (keys, values and their separators), 8,192 by default: what common
    /// servers and proxies accept in a request line.
    public var maximumURLBytes: Int
    /// Widest image in points, 1,280 by default as Mapbox.
    public var maximumWidth: Int
    /// Tallest image in points, 1,280 by default as Mapbox.
    public var maximumHeight: Int
    /// Largest `@Nx` scale, 3 by default: Mapbox takes only `@2x`, Declutter also `@3x` as its sprite sheets do.
    public var maximumScale: Int
    /// Overlays in the comma-separated list, 100 by default.
    public var maximumOverlays: Int
    /// Points across the request, 10,000 by default: each pin is one, each GeoJSON position one.
    public var maximumPoints: Int
    /// Vertices across all `path-…` overlays, 10,000 by default.
    public var maximumPathVertices: Int
    /// Arrays and objects open at once in a GeoJSON overlay, 32 by default (a MultiPolygon needs 6).
    public var maximumGeoJSONNesting: Int
    /// Times the overlays' lines may cross each other on the map, 20,000 by default: a path zigzagging across the
    /// map costs the drawing far more than its vertices say (counted by the renderer's `OverlayCrossings`).
    public var maximumOverlayCrossings: Int

    /// Creates limits; every argument defaults to the value documented on its property.
    public init(
        maximumURLBytes: Int = 8192, maximumWidth: Int = 1280, maximumHeight: Int = 1280, maximumScale: Int = 3,
        maximumOverlays: Int = 100, maximumPoints: Int = 10_000, maximumPathVertices: Int = 10_000,
        maximumGeoJSONNesting: Int = 32, maximumOverlayCrossings: Int = 20_000
    ) {
        self.maximumURLBytes = maximumURLBytes
        self.maximumWidth = maximumWidth
        self.maximumHeight = maximumHeight
        self.maximumScale = maximumScale
        self.maximumOverlays = maximumOverlays
        self.maximumPoints = maximumPoints
        self.maximumPathVertices = maximumPathVertices
        self.maximumGeoJSONNesting = maximumGeoJSONNesting
        self.maximumOverlayCrossings = maximumOverlayCrossings
    }
}
