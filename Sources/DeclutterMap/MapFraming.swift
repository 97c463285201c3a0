import DeclutterClustering
import DeclutterGeometry
import DeclutterTiles
import Foundation

/// How a map's camera is chosen: at a given centre and zoom, or fitted to a box or to the data.
public enum MapFraming: Sendable, Hashable {
    /// Centred on a coordinate at a zoom; a nil centre is the middle of the points and overlays (0°, 0° without any).
    case centered(Coordinate?, zoom: Double)
    /// A box filling the map within `padding`, zoomed in no further than `maxZoom`: a TANDm plist's region (no padding,
    /// up to zoom 22), or a static-map URL's bounding box.
    case region(WorldBounds, padding: EdgePadding, maxZoom: Double)
    /// Every point and overlay within `padding`, zoomed in no further than `maxZoom`; a pitched map is fitted as the
    /// tilted camera shows their outline.
    case data(padding: EdgePadding, maxZoom: Double)

    /// Fitting the data as `declutter render` and `auto` static-map URLs do by default: ``dataPadding`` and
    /// ``dataMaxZoom``.
    public static let fittingData = MapFraming.data(padding: dataPadding, maxZoom: dataMaxZoom)
    /// The padding a map fitted to its data takes by default: 40 points, room for the markers standing on the
    /// outermost points.
    public static let dataPadding = EdgePadding(all: 40)
    /// The highest zoom a map fitted to its data takes by default.
    public static let dataMaxZoom = 17.0
}
