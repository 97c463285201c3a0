import DeclutterGeometry
import DeclutterInput
import DeclutterMapContent
import DeclutterPlacement
import DeclutterRender
import DeclutterStyle
import DeclutterSupport
import Foundation

/// Where a map's furniture stands, and the areas markers keep clear of because of it.
struct FurnitureLayout {
    typealias Frame = (x: Double, y: Double, width: Double, height: Double)
    var legend: PlacedLegend?
    /// Other places for the legend, to try in turn.
    var alternatives: [(corner: MapLegend.Corner, frame: Frame)] = []
    var compass: (x: Double, y: Double)?
    /// The compass's, scale bar's and attribution's frames, their text measured in the renderer's fonts.
    var frames = FurnitureFrames()
    /// The pieces (`"compass"`, `"scale bar"`, `"attribution"`) markers are placed as if they were not there, drawn
    /// over them (``givesWay(_:freeing:of:width:height:)``).
    var overMarkers: Set<String> = []
    var warnings: [String] = []

    /// The compass in the top-right corner when asked for, the scale bar and `attribution` (nil or empty: none)
    /// measured where the painter draws them, and the legend where ``LegendPlacer`` finds it covers the fewest points,
    /// with its other places to try.
    init(
        _ furniture: MapFurniture, camera: MapCamera, annotator: MapAnnotator, renderer: StaticMapRenderer,
        attribution: String?,
        manyValues: (category: String, count: Int)? = nil
    ) throws {
        let margin = MapFurniture.margin, style = annotator.style
        let showsCompass = furniture.compass == .always || (furniture.compass == .automatic && camera.bearing != 0)
        if showsCompass {
            let radius = NorthArrow.diameter / 2
            compass = (camera.width - margin - radius, margin + radius)
        }
        frames = try renderer.furnitureFrames(
            camera: camera, compass: compass, scaleBar: furniture.scaleBar, attribution: attribution)
        fitToMap(width: camera.width, height: camera.height)
        guard furniture.legend else { return }
        let (counts, density) = annotator.pointsOnMap(camera)
        let mapLegend = MapLegend(title: furniture.legendTitle, style: style, counts: counts, manyValues: manyValues)
        guard !mapLegend.rows.isEmpty else {
            warnings.append("legend: no point is on the map, so there is no legend to draw")
            return
        }
        let box = try renderer.legendBox(mapLegend), size = box.size
        if case let unknown = box.namesWithUnknownGlyphs, !unknown.isEmpty {
            // Pango draws such characters as boxes; the legend is still drawn, the user told why it reads so.
            warnings.append(
                "legend: no installed font has every character of \(unknown.nameList(quoted: true, limit: 3)), drawn as "
                    + "boxes; a font that has them (Debian's fonts-noto-cjk, for one) draws them")
        }
        let placer = LegendPlacer(
            width: camera.width, height: camera.height, margin: margin, bottomMargin: MapFurniture.bottomMargin,
            topRightSquare: compass == nil ? 0 : NorthArrow.diameter, obstacles: frames.drawn)
        // A cluster reaches half its diameter from its centre, a balloon its height above its point.
        let places = placer.places(
            size: size, density: density, reach: max(style.largestClusterDiameter / 2, style.balloon.height))
        guard let first = places.first else {
            warnings.append(
                "legend: its \(Int(size.width))×\(Int(size.height)) pt box does not fit the map; drawn without one")
            return
        }
        legend = PlacedLegend(mapLegend, corner: first.corner, frame: first.frame)
        alternatives = Array(places.dropFirst())
    }

    /// Keeps the furniture on a small map: a scale bar the attribution would cover goes above it, or is left out where
    /// there is no room; a compass or scale bar that would reach past the map's edges is left out, and an
    /// attribution wider than the map is said to be cut (it is still printed: it is the data's licence). Each is
    /// said in a warning.
    mutating func fitToMap(width: Double, height: Double) {
        func inside(_ frame: Frame) -> Bool {
            frame.x >= 0 && frame.y >= 0 && frame.x + frame.width <= width && frame.y + frame.height <= height
        }
        func overlap(_ a: Frame, _ b: Frame) -> Bool {
            a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
        }
        let size = "\(Int(width.rounded()))×\(Int(height.rounded())) pt"
        if let frame = frames.compass, !inside(frame) {
            frames.compass = nil
            compass = nil
            warnings.append("compass: the \(size) map has no room for it; drawn without one")
        }
        if var bar = frames.scaleBar, let attribution = frames.attribution?.frame, overlap(bar.frame, attribution) {
            // Above the attribution, at its left edge's height less the gap the two keep side by side.
            bar.frame.y = attribution.y - 2 - bar.frame.height
            if inside(bar.frame) && !(frames.compass.map { overlap($0, bar.frame) } ?? false) {
                frames.scaleBar = bar
            } else {
                frames.scaleBar = nil
                warnings.append(
                    "scale bar: the \(size) map has no room for it beside the attribution; drawn without one")
            }
        }
        if let bar = frames.scaleBar, !inside(bar.frame) {
            frames.scaleBar = nil
            warnings.append("scale bar: the \(size) map has no room for it; drawn without one")
        }
        if let attribution = frames.attribution?.frame, !inside(attribution) {
            warnings.append(
                "attribution: its \(Int(attribution.width.rounded())) pt box is wider than the \(size) map, so it is cut"
            )
        }
    }

    /// The areas markers keep clear of: the compass, the scale bar, the attribution and the legend, with 2 points
    /// around each.
    var reserved: [CollisionGrid.Shape] { reserved(legendAt: legend?.frame) }

    /// The areas markers keep clear of with the legend at `frame`.
    func reserved(legendAt frame: Frame?) -> [CollisionGrid.Shape] { named(legendAt: frame).map(\.shape) }

    /// The areas markers keep clear of, each with the name of what stands there, the legend at `frame`.
    func named(legendAt frame: Frame?) -> [(name: String, shape: CollisionGrid.Shape)] {
        var shapes = frames.reserved(margin: Self.clearance)
        shapes.removeAll { overMarkers.contains($0.name) }
        if let frame {
            shapes.append(
                (
                    "legend",
                    .box(
                        minX: frame.x - Self.clearance, minY: frame.y - Self.clearance,
                        maxX: frame.x + frame.width + Self.clearance,
                        maxY: frame.y + frame.height + Self.clearance)
                ))
        }
        return shapes
    }

    /// The small pieces markers keep clear of (compass, scale bar, attribution; not the legend, which has other places
    /// to go) that may give way on a thumbnail of `width` × `height` points, each alone and then all together: the
    /// sets ``givesWay(_:freeing:of:width:height:)`` may try. None on a larger map, where points under the furniture
    /// are where the camera put them, not where any cluster on so small a map must reach.
    func piecesThatMayGiveWay(width: Double, height: Double) -> [Set<String>] {
        guard min(width, height) < Self.thumbnailSide else { return [] }
        let pieces = frames.reserved(margin: 0).map(\.name).filter { !overMarkers.contains($0) }
        return pieces.map { [$0] } + (pieces.count > 1 ? [Set(pieces)] : [])
    }

    /// A map whose shorter side is below this many points is a thumbnail: one cluster icon (up to 56 points across)
    /// takes a third of it or more.
    static let thumbnailSide = 160.0

    /// Lets markers stand under `pieces` when keeping clear of them would hide more than half the points in view
    /// (`freed` more shown without them, of `inView`): on a thumbnail, one cluster in the middle reaches the bottom
    /// strip or the compass's corner, and a map with nothing on it but its furniture serves no one. The pieces are
    /// then drawn over the markers, as other static maps draw theirs; the attribution is still the data's credit.
    /// Returns whether they give way, said in a warning.
    mutating func givesWay(_ pieces: Set<String>, freeing freed: Int, of inView: Int, width: Double, height: Double)
        -> Bool
    {
        guard !pieces.isEmpty, pieces.isDisjoint(with: overMarkers), 2 * freed > inView else { return false }
        overMarkers.formUnion(pieces)
        let names = ["compass", "scale bar", "attribution"].filter(pieces.contains)
        let (them, they) = names.count == 1 ? ("it", "it is") : ("them", "they are")
        warnings.append(
            "\(names.joinedWithAnd()): keeping markers clear of \(them) would hide \(freed) of the \(inView) points in "
                + "view on this \(Int(width.rounded()))×\(Int(height.rounded())) pt map, so \(they) drawn over them")
        return true
    }

    /// Clear space kept between a marker and a piece of furniture, in points.
    static let clearance = 2.0
}
