import DeclutterBasemap
import DeclutterGeometry
import DeclutterMapContent
import DeclutterPlacement
import DeclutterStyle
import Foundation

/// Draws static maps — basemap or fetched tiles, overlays, place names, marker views and furniture — as PNG, SVG
/// or PDF. It fetches nothing: tiles come fetched, in ``Basemap/tiles(_:)``.
///
/// ```swift
/// let annotator = try MapAnnotator(points: points, style: style)
/// let camera = try MapCamera(center: Coordinate(longitude: -122.4136, latitude: 37.805), zoom: 16, width: 600, height:
/// 400) let map = StaticMap(camera: camera, scale: 2, annotations: try annotator.annotations(for: camera)) let (canvas,
/// warnings) = try StaticMapRenderer(style: style).render(map, format: .png) try canvas.write(to: URL(fileURLWithPath:
/// "map.png"))
/// ```
/// One renderer serves one thread at a time.
public final class StaticMapRenderer {
    /// The marker renderer, reused across maps.
    public let markers: MarkerRenderer
    /// Embedded-basemap tiles kept across maps (a server's), shared between renderers; nil (the default) draws each
    /// map's basemap whole.
    public var basemapTiles: BasemapTileCache?
    /// The map's look.
    public var style: MapStyle { markers.style.map }

    /// Creates a renderer for a style.
    public init(style: MarkerStyle) throws {
        markers = try MarkerRenderer(style: style)
    }

    /// Pixels per point that tiles are planned and drawn for: the PNG's; a pitched map in SVG or PDF embeds its
    /// sampled tiles as one image at 2×, so that a viewer's zoom finds detail; a flat one embeds the tiles as they
    /// come.
    public static func tileScale(camera: MapCamera, scale: Double, format: OutputFormat) -> Double {
        format == .png ? scale : camera.perspective.isFlat ? 1 : 2
    }

    /// Draws a map in order: the background, the basemap or tiles, the overlays, the embedded basemap's place names,
    /// the marker views, then the furniture; the warnings name tiles that were missing or unreadable.
    ///
    /// - Throws: ``RenderError`` for sizes over the limit, before any drawing;
    /// ``TileError/missingTiles(missing:of:first:reason:)``
    ///   when a tile is missing and ``StaticMap/missingTiles`` is ``MissingTiles/fail``.
    public func render(_ map: consuming StaticMap, format: OutputFormat) throws -> (canvas: Canvas, warnings: [String])
    {
        let camera = map.camera
        // The tiles' bytes leave the map, so that each is let go of as soon as it is drawn.
        var images: [TileKey: Data] = [:]
        if case var .tiles(tiles) = map.basemap {
            if map.missingTiles == .fail { try tiles.refuseMissing() }
            swap(&images, &tiles.images)
            map.basemap = .tiles(tiles)
        }
        let canvas = try Canvas(width: camera.width, height: camera.height, scale: map.scale, format: format)
        let context = canvas.context
        context.paint(style.background)
        var warnings: [String] = []
        switch map.basemap {
        case .none: break
        case .world:
            if let basemapTiles, BasemapTileCache.serves(camera, scale: map.scale, format: format) {
                try basemapTiles.draw(
                    file: try WorldBasemap.file(), style: style, camera: camera, scale: map.scale, in: context)
            } else {
                try BasemapPainter(file: try WorldBasemap.file(), style: style, camera: camera).draw(
                    scale: map.scale, in: context)
            }
        case let .tiles(tiles):
            let painter = TilePainter(
                camera: camera, scale: Self.tileScale(camera: camera, scale: map.scale, format: format),
                missing: style.missingTile)
            let unreadable = try painter.draw(tiles.plan, images: &images, source: tiles.source, on: canvas)
            let failures = tiles.failures.merging(unreadable) { first, _ in first }
            if map.missingTiles == .fail { try RasterTiles.refuseMissing(tiles.plan, failures: failures) }
            // A tile shown more than once (the world repeated across a wide map) is warned about once.
            var warned = Set<TileKey>()
            for placement in tiles.plan.tiles where warned.insert(placement.key).inserted {
                if let failure = failures[placement.key] { warnings.append("tile \(placement.key): \(failure.reason)") }
            }
        }
        try OverlayPainter(map.overlays, camera: camera, scale: map.scale, format: format).draw(
            on: canvas, scale: map.scale)
        let furniture = try FurniturePainter(map, attribution: attribution(of: map), text: markers.text, style: style)
        if case .world = map.basemap {
            try BasemapPainter(file: try WorldBasemap.file(), style: style, camera: camera)
                .drawPlaceNames(around: map.annotations, reserved: furniture.reserved, text: markers.text, in: context)
        }
        try drawMarkers(map.annotations, scale: map.scale, in: context)
        furniture.draw(in: context)
        try context.checkStatus("draw the map")
        return (canvas, warnings)
    }

    /// The attribution to print: the map's own, else its basemap's.
    private func attribution(of map: borrowing StaticMap) -> String? {
        switch map.basemap {
        case .none: return map.attribution
        case .world: return map.attribution ?? WorldBasemap.attribution
        case let .tiles(tiles): return map.attribution ?? tiles.attribution
        }
    }

    /// Visible marker views and their copies, each snapped to whole device pixels so pre-rendered icons are copied
    /// unchanged.
    private func drawMarkers(_ annotations: [MapAnnotation], scale: Double, in context: DrawingContext) throws {
        for annotation in annotations where annotation.visible {
            for corner in [(annotation.frame.x, annotation.frame.y)] + annotation.copies.map({ ($0.x, $0.y) }) {
                context.save()
                context.translate(x: (corner.0 * scale).rounded() / scale, y: (corner.1 * scale).rounded() / scale)
                try markers.draw(categoryCounts: annotation.categoryCounts, in: context, scale: scale)
                context.restore()
            }
        }
    }

    /// Where a map's compass (centred at `compass`), scale bar (when asked for) and attribution (nil or empty: none)
    /// stand, their text measured in this renderer's fonts: known before markers are placed, so that they keep clear.
    public func furnitureFrames(
        camera: MapCamera, compass: (x: Double, y: Double)?, scaleBar: Bool, attribution: String?
    ) throws -> FurnitureFrames {
        try FurniturePainter.frames(
            camera: camera, compass: compass, scaleBar: scaleBar, attribution: attribution, text: markers.text)
    }

    /// A legend laid out in this renderer's fonts, for its size before drawing.
    public func legendBox(_ legend: MapLegend) throws -> LegendBox {
        try LegendBox(legend, text: markers.text)
    }
}
