import DeclutterClustering
import DeclutterMapContent
import DeclutterRender
import DeclutterStyle
import DeclutterTiles

extension PlacedTileset {
    /// The tiles `declutter tiles` writes by default, for points already prepared for `style`
    /// (``CategoryAssignment``): the hierarchy built down from the highest zoom's camera, each cluster's count at the
    /// size its static icon draws it (a count too wide for its ring smaller). `declutter tiles` and `declutter serve`
    /// both make their tiles here, so that a served tile has the bytes of a written one. With `keepingIdentifiers` the
    /// points keep the clustering identifiers they were prepared with (`--group-by`'s) instead of their categories'.
    ///
    /// - Throws: ``AnnotationError`` for a point the style cannot draw; ``TilesetError`` for zooms, a buffer or a layer
    ///   name out of range.
    public init(
        placing points: [ClusterPoint], style: MarkerStyle, zooms: ClosedRange<Int>, layerName: String = "points",
        buffer: Int = 64, aggregates: [ClusterAggregate] = [], keepingIdentifiers: Bool = false
    ) throws {
        let highest =
            MapAnnotator.indexZoom(forZoom: MapAnnotator.cameraZoom(tileZoom: zooms.upperBound), style: style) - 1
        let annotator = try MapAnnotator(
            points: points, style: style, minimumZoom: zooms.lowerBound + 1,
            maximumZoom: max(zooms.lowerBound + 1, highest), keepingIdentifiers: keepingIdentifiers)
        let renderer = try MarkerRenderer(style: style)
        try self.init(
            annotator: annotator, layerName: layerName, extent: 4096, buffer: buffer, zooms: zooms,
            aggregates: aggregates
        ) {
            label, bucket in
            (try? renderer.countFontSize(label, bucket: bucket)) ?? bucket.fontSize
        }
    }
}
