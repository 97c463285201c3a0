import DeclutterGeometry
import DeclutterMapContent
import DeclutterStyle
import DeclutterSupport
import Foundation

/// What stands on a map besides its markers — the legend, the north arrow, the scale bar and the attribution — laid
/// out once, so that place names can keep clear of them before they are drawn over everything.
struct FurniturePainter {
    /// The map's box in points, as ``PlaceLabeler`` takes boxes.
    typealias Box = PlaceLabeler.Box

    private let camera: MapCamera
    private let style: MapStyle
    private let legend: (box: LegendBox, x: Double, y: Double)?
    private let compass: (x: Double, y: Double)?
    private let scaleBar: (bar: FurnitureFrames.ScaleBar, label: TextLayout)?
    private let attribution: (frame: Box, layout: TextLayout)?

    /// Lays out the furniture `map` asks for, `attribution` being the text its basemap calls for (nil or empty: none).
    /// The scale bar and attribution stand at the frames `map.furnitureFrames` gives, else where
    /// ``frames(camera:compass:scaleBar:attribution:text:)`` puts them.
    init(_ map: borrowing StaticMap, attribution: String?, text: TextEngine, style: MapStyle) throws {
        camera = map.camera
        self.style = style
        legend = try map.legend.map { (box: try LegendBox($0.legend, text: text), x: $0.x, y: $0.y) }
        compass = map.compass
        let frames =
            try map.furnitureFrames
            ?? Self.frames(
                camera: map.camera, compass: nil, scaleBar: map.scaleBar, attribution: attribution, text: text)
        scaleBar = try frames.scaleBar.map { ($0, try Self.scaleBarLabel($0.label, text: text)) }
        self.attribution = try frames.attribution.map {
            ($0.frame, try Self.attributionLayout($0.text, size: $0.fontSize, text: text))
        }
    }

    /// The frames of the compass centred at `compass`, the scale bar when asked for and the attribution (nil or empty:
    /// none), their text measured with `text`'s fonts.
    static func frames(
        camera: MapCamera, compass: (x: Double, y: Double)?, scaleBar: Bool, attribution: String?,
        text: TextEngine
    ) throws -> FurnitureFrames {
        let diameter = NorthArrow.diameter
        return FurnitureFrames(
            compass: compass.map { ($0.x - diameter / 2, $0.y - diameter / 2, diameter, diameter) },
            scaleBar: scaleBar ? try Self.scaleBar(camera: camera, text: text) : nil,
            attribution: try attribution.flatMap {
                $0.isEmpty ? nil : try Self.attribution($0, camera: camera, text: text)
            })
    }

    /// The boxes place names keep clear of: the attribution's, the scale bar's, the legend's and the compass's.
    var reserved: [Box] {
        let legendArea = legend.map { ($0.x, $0.y, $0.box.size.width, $0.box.size.height) }
        let compassArea = compass.map {
            ($0.x - NorthArrow.diameter / 2, $0.y - NorthArrow.diameter / 2, NorthArrow.diameter, NorthArrow.diameter)
        }
        return [attribution?.frame, scaleBar?.bar.frame, legendArea, compassArea].compactMap { $0 }
    }

    /// Draws the legend, the north arrow, the scale bar and the attribution, in that order.
    func draw(in context: DrawingContext) {
        if let legend { legend.box.draw(x: legend.x, y: legend.y, in: context, textColor: style.text) }
        if let compass {
            NorthArrow.draw(
                centerX: compass.x, centerY: compass.y, bearing: camera.bearing, in: context, textColor: style.text)
        }
        if let scaleBar { drawScaleBar(scaleBar.bar, label: scaleBar.label, in: context) }
        if let attribution { drawAttribution(attribution.layout, box: attribution.frame, in: context) }
    }

    /// The attribution's text as it is printed, at `size` points.
    private static func attributionLayout(_ text: String, size: Double, text engine: TextEngine) throws -> TextLayout {
        try engine.layout(text, family: "DejaVu Sans", size: size)
    }

    /// The attribution's pale box in the bottom-right corner, sized to its text: 9 points, smaller on a map too narrow
    /// for that (a thumbnail), down to 6 points; narrower still, it is cut at the left edge.
    private static func attribution(_ text: String, camera: MapCamera, text engine: TextEngine) throws
        -> FurnitureFrames.Attribution
    {
        let padding = 3.0, largest = 9.0, smallest = 6.0
        var size = largest
        var layout = try attributionLayout(text, size: size, text: engine)
        if layout.logicalExtents.width + 2 * padding > camera.width {
            // Text width scales with the size; rounded down to a tenth of a point, so that the box fits.
            let fitting = largest * (camera.width - 2 * padding) / layout.logicalExtents.width
            size = max(smallest, (fitting * 10).rounded(.down) / 10)
            layout = try attributionLayout(text, size: size, text: engine)
        }
        let width = layout.logicalExtents.width + 2 * padding, height = layout.logicalExtents.height + padding
        return FurnitureFrames.Attribution(
            frame: (camera.width - width, camera.height - height, width, height), text: text, fontSize: size)
    }

    /// The attribution on its pale box.
    private func drawAttribution(_ layout: TextLayout, box: Box, in context: DrawingContext) {
        let padding = 3.0
        context.newPath()
        context.rectangle(x: box.x, y: box.y, width: box.width, height: box.height)
        context.fill(RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.75))
        context.show(layout, x: box.x + padding, y: box.y + padding / 2, color: style.text)
    }

    /// The scale bar's label as it is printed.
    private static func scaleBarLabel(_ label: String, text: TextEngine) throws -> TextLayout {
        try text.layout(label, family: "DejaVu Sans Bold", size: 9)
    }

    /// The scale bar's length in points, its label, and the box it covers (its halo and label included); nil where the
    /// map has no scale (a zoom so low that a point spans no finite distance).
    private static func scaleBar(camera: MapCamera, text: TextEngine) throws -> FurnitureFrames.ScaleBar? {
        let metersPerPoint = camera.metersPerPoint
        guard metersPerPoint > 0, metersPerPoint.isFinite else { return nil }
        let (distance, label) = scaleBarDistance(maximum: metersPerPoint * 100)
        let length = distance / metersPerPoint, x = scaleBarX, y = camera.height - scaleBarInset
        let layout = try scaleBarLabel(label, text: text)
        let top = min(y - 7, y - 4 - layout.logicalExtents.height)
        return FurnitureFrames.ScaleBar(
            frame: (x - 2, top, max(length + 4, layout.logicalExtents.width + 6), y + 2 - top),
            length: length, label: label)
    }

    /// Where the scale bar stands: its left end's distance from the map's left edge, its line's from the bottom edge.
    private static let scaleBarX = 8.0, scaleBarInset = 10.0

    /// A scale bar in the bottom-left corner: the longest round distance (1, 2 or 5 × 10ⁿ m) up to 100 points.
    private func drawScaleBar(_ bar: FurnitureFrames.ScaleBar, label: TextLayout, in context: DrawingContext) {
        // The line stands where the frame says: its left end 2 points in, 2 points above the frame's bottom.
        let x = bar.frame.x + 2, y = bar.frame.y + bar.frame.height - 2, length = bar.length
        context.newPath()
        context.move(toX: x, y: y - 5)
        context.line(toX: x, y: y)
        context.line(toX: x + length, y: y)
        context.line(toX: x + length, y: y - 5)
        context.strokeRound(RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.9), width: 4)
        context.move(toX: x, y: y - 5)
        context.line(toX: x, y: y)
        context.line(toX: x + length, y: y)
        context.line(toX: x + length, y: y - 5)
        context.strokeRound(style.text, width: 1.5)
        context.show(label, x: x + 4, y: y - 4 - label.logicalExtents.height, color: style.text)
    }

    /// The longest 1, 2 or 5 × 10ⁿ metres not over `maximum`, with its label (`500 m`, `2 km`).
    static func scaleBarDistance(maximum: Double) -> (Double, String) {
        var magnitude = pow(10, (log10(maximum)).rounded(.down))
        var distance = magnitude
        for step in [5.0, 2, 1] where step * magnitude <= maximum {
            distance = step * magnitude
            break
        }
        if distance < 1 {
            magnitude = 1
            distance = 1
        }
        let label = distance >= 1000 ? "\(JSONValue.format(distance / 1000)) km" : "\(JSONValue.format(distance)) m"
        return (distance, label)
    }
}
