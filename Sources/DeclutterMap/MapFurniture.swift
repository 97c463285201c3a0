import DeclutterRender
import Foundation

/// What stands on a map besides its markers and overlays: a legend, a north arrow, a scale bar and the attribution.
public struct MapFurniture: Sendable, Hashable {
    /// Whether to draw a legend of the categories on the map, where it covers the fewest points; markers keep clear of
    /// it. Default false.
    public var legend = false
    /// The legend's heading; nil draws none.
    public var legendTitle: String?
    /// When to draw a north arrow. Default ``CompassChoice/automatic``.
    public var compass = CompassChoice.automatic
    /// Whether to draw a scale bar in the bottom-left corner. Default false.
    public var scaleBar = false
    /// The attribution for the bottom-right corner: nil takes the basemap's own, "" draws none.
    public var attribution: String?

    /// No legend, a compass only when the map is turned, no scale bar, the basemap's attribution.
    public init() {}

    /// When to draw a north arrow.
    public enum CompassChoice: String, Sendable, Hashable, CaseIterable {
        /// Only when the map is turned, as MapKit does.
        case automatic = "auto"
        /// Always.
        case always
        /// Never.
        case never
    }

    /// Clear space between the map's edge and a legend or compass; at the bottom, room for the attribution and scale
    /// bar below it too.
    static let margin = 8.0, bottomMargin = 26.0
}
