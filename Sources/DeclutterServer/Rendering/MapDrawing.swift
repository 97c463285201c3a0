import DeclutterClustering
import DeclutterGeometry
import DeclutterMap
import DeclutterPNG
import DeclutterRender
import DeclutterStaticAPI
import DeclutterStyle
import DeclutterSupport
import DeclutterTileSources
import DeclutterTiles
import Foundation

/// A static-map request translated for the map pipeline: the ``MapDescription`` to draw on a render thread, the
/// image format, and whether the layout is wanted too.
public struct MapDrawing: Sendable {
    /// The map to draw.
    public var map: MapDescription
    /// The image format.
    public var format: OutputFormat = .png
    /// Whether to return `--layout`'s JSON too.
    public var layout = false
    /// The style's own categories; those after them were added for a request's colours.
    var baseCategoryCount: Int

    /// A drawing of `style` looking as `camera` says, `width`×`height` points; the rest as set after. `padding` is kept
    /// free at the edges of a fitted map: by default none for a box, 40 points for `auto` (room for the markers
    /// standing on the outermost points, as `declutter render --padding`).
    public init(style: MarkerStyle, camera: StaticMapCamera, width: Int, height: Int, padding: EdgePadding? = nil) {
        map = MapDescription(points: [], style: style)
        map.width = Double(width)
        map.height = Double(height)
        // The server's maps draw furniture only when asked: a turned map has no compass unless `compass` asks.
        map.furniture.compass = .never
        switch camera {
        case let .center(center, zoom, bearing, pitch):
            map.framing = .centered(center, zoom: StaticMapCamera.cameraZoom(zoom))
            map.bearing = bearing
            map.pitch = pitch
        case let .boundingBox(southWest, northEast):
            // The box as written, west to east: not the shorter way round, which would turn a box round most of the
            // world into the strip of it left out.
            let box = WorldBounds(
                west: southWest.longitude, south: southWest.latitude, east: northEast.longitude,
                north: northEast.latitude)
            map.framing = .region(
                box, padding: padding ?? EdgePadding(all: 0),
                maxZoom: MapCamera.zoomRange.upperBound)
        case .auto:
            map.framing = .data(padding: padding ?? MapFraming.dataPadding, maxZoom: MapFraming.dataMaxZoom)
        }
        baseCategoryCount = style.categories.count
    }

    /// What was drawn: the image's bytes and, when asked for, the layout.
    public struct Output: Sendable {
        /// The encoded image.
        public var image: Data
        /// `--layout`'s JSON: the views drawn, their members and frames; nil unless ``MapDrawing/layout``.
        public var layout: JSONValue?
        /// Tiles drawn as grey squares because they could not be had or read.
        public var missingTiles = 0
    }

    /// Draws the map with the worker's renderer for its style.
    ///
    /// - Throws: what ``MapDescription/draw(format:renderer:)`` throws.
    public func draw(with worker: RenderWorker) throws -> Output {
        let drawn = try map.draw(format: format, renderer: worker.renderer(for: map.annotator?.style ?? map.style))
        // The renderer warns once per tile that could not be had or read, and of nothing else with "tile ".
        let missing = drawn.warnings.count { $0.hasPrefix("tile ") }
        // One thread encodes each map: the render threads already keep every core busy, and bands on other threads
        // would only add hand-offs and the rows each band re-reads.
        var encoder = PNGEncoder()
        encoder.usesEveryCore = false
        return Output(
            image: try drawn.canvas.data(encoder: encoder), layout: layout ? drawn.layout : nil, missingTiles: missing)
    }
}
