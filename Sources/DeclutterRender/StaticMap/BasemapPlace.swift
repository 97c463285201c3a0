/// A populated place of the embedded basemap: its name, where it is, and the zoom from which it is named.
struct BasemapPlace: Sendable, Hashable {
    /// The name as Natural Earth spells it.
    var name: String
    /// World units (Web Mercator 0…1).
    var x: Double
    var y: Double
    /// Natural Earth's `min_zoom`: the lowest zoom at which the place is labelled.
    var minZoom: Double
}
