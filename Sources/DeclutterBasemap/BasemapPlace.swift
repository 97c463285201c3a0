/// A populated place of the embedded basemap: its name, where it is, and the zoom from which it is named.
public struct BasemapPlace: Sendable, Hashable {
    /// The name as Natural Earth spells it.
    public var name: String
    /// World units (Web Mercator 0…1), west to east.
    public var x: Double
    /// World units, north to south.
    public var y: Double
    /// Natural Earth's `min_zoom`: the lowest zoom at which the place is labelled.
    public var minZoom: Double

    /// Creates a place from its name, position in world units and min zoom.
    public init(name: String, x: Double, y: Double, minZoom: Double) {
        self.name = name
        self.x = x
        self.y = y
        self.minZoom = minZoom
    }
}
