import DeclutterStaticAPI
import Foundation

/// What one request may ask of the server, checked before the work it bounds (issue #24's safety rules).
public struct ServerLimits: Sendable, Hashable {
    /// Static-map URLs' and bodies' limits: URL length, width and height (1,280 by default as Mapbox), scale (3),
    /// overlays, points and path vertices per request.
    public var staticMap: StaticMapLimits
    /// Bytes in a request body (`POST /static`), 1 MiB by default.
    public var maximumBodyBytes: Int
    /// Seconds a render may take, queue included, 10 by default: a later answer is a 503, and a render not started by
    /// then is not started at all.
    public var renderSeconds: Double
    /// Basemap tiles one map may need, 256 by default as `declutter render`'s `--max-tiles` (a 1,280×1,280 map at
    /// @3x needs at most 256 tiles of 256 px).
    public var maximumTiles: Int

    /// Creates limits; every argument defaults to the value documented on its property.
    public init(staticMap: StaticMapLimits = StaticMapLimits(), maximumBodyBytes: Int = 1 << 20, renderSeconds: Double = 10,
                maximumTiles: Int = 256) {
        self.staticMap = staticMap
        self.maximumBodyBytes = maximumBodyBytes
        self.renderSeconds = renderSeconds
        self.maximumTiles = maximumTiles
    }
}
