import DeclutterRender
import DeclutterStyle

/// What one render thread keeps across maps: a renderer per style, made on first use.
///
/// A ``StaticMapRenderer`` serves one thread at a time and caches drawn icons and shaped labels, so each thread of
/// the ``RenderPool`` keeps its own; nothing here is shared between threads.
public final class RenderWorker {
    private var renderers: [MarkerStyle: StaticMapRenderer] = [:]

    /// Renderers kept at most: styles made from a request's data (`POST /static` with `category`) differ by request,
    /// and must not grow the cache without bound.
    static let maximumRenderers = 16

    /// The embedded basemap's tiles, shared by every render thread of the pool: a server draws the same zooms of the
    /// same world over and over.
    let basemapTiles: BasemapTileCache

    init(basemapTiles: BasemapTileCache) { self.basemapTiles = basemapTiles }

    /// The renderer for `style`.
    public func renderer(for style: MarkerStyle) throws -> StaticMapRenderer {
        if let renderer = renderers[style] { return renderer }
        if renderers.count >= Self.maximumRenderers { renderers.removeAll() }
        let renderer = try StaticMapRenderer(style: style)
        renderer.basemapTiles = basemapTiles
        renderers[style] = renderer
        return renderer
    }
}
