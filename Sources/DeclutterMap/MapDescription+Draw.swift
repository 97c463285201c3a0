import DeclutterGeometry
import DeclutterInput
import DeclutterMapContent
import DeclutterPlacement
import DeclutterRender
import DeclutterStyle
import DeclutterTiles
import Foundation

extension MapDescription {
    /// Draws the map: the points are projected once, the camera resolved once, the categories given once, then the
    /// points are clustered and placed around the furniture, the tiles fetched, and everything drawn.
    ///
    /// - Parameter renderer: A renderer for the map's style to reuse (one per thread); nil makes one.
    /// - Throws: ``CameraError`` for a camera out of range or nothing to fit; ``AnnotationError`` for a point without a
    ///   location or whose category the style lacks; ``TileError`` when tiles cannot be had; ``RenderError`` for a
    ///   size over the limit or overlays crossing themselves more than ``maxOverlayCrossings`` times.
    public func draw(format: OutputFormat, renderer: StaticMapRenderer? = nil) throws -> DrawnMap {
        let laidOut = try layOut(renderer: renderer)
        let chosen = try roomForLegend(laidOut, renderer: renderer) ?? laidOut
        var drawn = try chosen.description.render(
            chosen.furniture, chosen.annotated, camera: chosen.camera, annotator: chosen.annotator, format: format,
            renderer: chosen.renderer, pointsUnderFurniture: chosen.pointsUnderFurniture)
        drawn.categoryNote = chosen.categoryNote
        drawn.warnings.insert(contentsOf: chosen.fitWarnings, at: 0)
        return drawn
    }

    /// A map laid out but not yet drawn: the camera, the points placed around the furniture, what the fit has to say.
    private struct LaidOut {
        /// The map as drawn, its shared values found.
        var description: MapDescription
        var camera: MapCamera
        var annotator: MapAnnotator
        var renderer: StaticMapRenderer
        var furniture: FurnitureLayout
        var annotated: AnnotatedMap
        var categoryNote: String?
        /// Warnings about the fit and the points, first among the map's.
        var fitWarnings: [String]
        /// The points the map hides under each piece of furniture.
        var pointsUnderFurniture: [(name: String, points: Int)]

        /// The points the map does not show whole: off the map, hidden, or in a view that the map's edge cuts (at
        /// zoom 0 a padded world can be too tall for the map, and the fit then cuts the views at its top or bottom).
        var pointsNotShownWhole: Int {
            let width = camera.width, height = camera.height, tolerance = 0.5
            let cut = annotated.annotations.reduce(0) { sum, annotation in
                guard annotation.visible else { return sum }
                let frame = annotation.frame
                let whole = ([(x: frame.x, y: frame.y)] + annotation.copies).contains { corner in
                    corner.x >= -tolerance && corner.y >= -tolerance && corner.x + frame.width <= width + tolerance
                        && corner.y + frame.height <= height + tolerance
                }
                return whole ? sum : sum + annotation.count
            }
            return annotator.points.count - annotated.pointsInView + annotated.hiddenPointsInView + cut
        }
    }

    /// The map fitted to its data again with room beside the legend, where the legend hides 1 % of the points in view
    /// or more: the data then fits the area the legend leaves, as a map's padding leaves room for what stands over it.
    /// On a small map the legend's box is much of the map (180×145 pt of a 400×300 one), and wherever it stands, the
    /// cluster of a continent that reaches it is hidden with all its points. The legend's corner is padded across
    /// (its width) and, apart, down (its height); the layout that leaves the fewest points not shown whole is kept,
    /// the first on a tie. Nil when the map needs no such fit, or neither shows more. Only layouts are tried: the
    /// one kept is drawn.
    private func roomForLegend(_ laidOut: LaidOut, renderer: StaticMapRenderer?) throws -> LaidOut? {
        guard case let .data(padding, maxZoom) = framing, let legend = laidOut.furniture.legend,
            let hidden = laidOut.pointsUnderFurniture.first(where: { $0.name == "legend" })?.points,
            hidden > 0, 100 * hidden >= laidOut.annotated.pointsInView
        else { return nil }
        let frame = legend.frame, clearance = FurnitureLayout.clearance
        let left = legend.corner == .topLeft || legend.corner == .bottomLeft
        let top = legend.corner == .topLeft || legend.corner == .topRight
        var across = padding, down = padding
        if left {
            across.left = max(padding.left, frame.x + frame.width + clearance)
        } else {
            across.right = max(padding.right, width - frame.x + clearance)
        }
        if top {
            down.top = max(padding.top, frame.y + frame.height + clearance)
        } else {
            down.bottom = max(padding.bottom, height - frame.y + clearance)
        }
        var best: LaidOut?
        for roomier in [across, down] {
            var described = self
            described.framing = .data(padding: roomier, maxZoom: maxZoom)
            // A padding that leaves the data no room is no fit: that side is not tried.
            guard let trial = try? described.layOut(renderer: renderer),
                trial.pointsNotShownWhole < (best ?? laidOut).pointsNotShownWhole
            else { continue }
            best = trial
        }
        return best
    }

    /// Lays the map out with its own framing: the camera resolved, the categories given, the points clustered, the
    /// views fitted and placed around the furniture.
    private func layOut(renderer: StaticMapRenderer?) throws -> LaidOut {
        let world = annotator?.projected ?? ProjectedPoints(points)
        let camera = try camera(world: world)
        let categorised = try self.categorised(camera: camera, world: world)
        // One map needs the hierarchy down to its own zoom only (a fitted map's, once its views are fitted).
        let lowest = lowestZoom(camera, world: world, style: categorised.style)
        let annotator =
            try categorised.annotator
            ?? MapAnnotator(
                points: categorised.points, projected: world, style: categorised.style,
                minimumZoom: Int(lowest.rounded(.down)))
        var described = self
        described.manyValues = categorised.manyValues
        if described.manyValues == nil, furniture.legend {
            described.manyValues = sharedValuesOnMap(points: annotator.points, camera: camera, world: world)
        }
        let fitted = try fittingViews(camera, annotator: annotator, world: world)
        let renderer = try renderer ?? StaticMapRenderer(style: annotator.style)
        let (furniture, annotated) = try described.layOut(camera: fitted, annotator: annotator, renderer: renderer)
        // Data that fits at no zoom is said as such; cut views are then its consequence.
        let unfitted =
            unfittedWarning(fitted, world: world)
            ?? unfittedTurnedWarning(fitted, pointsOnMap: annotated.pointsInView, of: annotator.points.count)
        let fitWarnings = [
            beyondMercatorWarning(annotator, camera: fitted), zeroZeroWarning, unfitted,
            unfitted == nil ? cutViewsWarning(annotated) : nil,
        ].compactMap { $0 }
        return LaidOut(
            description: described, camera: fitted, annotator: annotator, renderer: renderer, furniture: furniture,
            annotated: annotated, categoryNote: categorised.categoryNote, fitWarnings: fitWarnings,
            pointsUnderFurniture: Self.pointsUnder(furniture, annotated, camera: fitted, style: annotator.style))
    }

    /// Draws the map with `camera` from `annotator`'s points: for a gesture's frames, which share one annotator.
    func draw(camera: MapCamera, annotator: MapAnnotator, format: OutputFormat, renderer: StaticMapRenderer?) throws
        -> DrawnMap
    {
        let renderer = try renderer ?? StaticMapRenderer(style: annotator.style)
        let (furniture, annotated) = try layOut(camera: camera, annotator: annotator, renderer: renderer)
        return try render(
            furniture, annotated, camera: camera, annotator: annotator, format: format, renderer: renderer,
            pointsUnderFurniture: Self.pointsUnder(furniture, annotated, camera: camera, style: annotator.style))
    }

    /// The points `annotated` hides under each piece of furniture.
    private static func pointsUnder(
        _ furniture: FurnitureLayout, _ annotated: AnnotatedMap, camera: MapCamera, style: MarkerStyle
    ) -> [(name: String, points: Int)] {
        FurnitureCover(furniture.named(legendAt: furniture.legend?.frame), width: camera.width, height: camera.height)
            .hiddenPoints(annotated.annotations, style: style)
    }

    /// The furniture and the points placed around it with `camera`: the legend where it hides the fewest points, and
    /// on a thumbnail the small pieces drawn over the markers where keeping clear of them would hide most.
    private func layOut(camera: MapCamera, annotator: MapAnnotator, renderer: StaticMapRenderer) throws -> (
        FurnitureLayout, AnnotatedMap
    ) {
        if let limit = maxOverlayCrossings, !overlays.isEmpty,
            OverlayCrossings.count(overlays, camera: camera, limit: limit) > limit
        {
            throw RenderError.tooManyCrossings(limit: limit)
        }
        var furniture = try FurnitureLayout(
            self.furniture, camera: camera, annotator: annotator, renderer: renderer, attribution: attribution,
            manyValues: manyValues)
        var annotated = try annotator.annotate(
            camera, reserved: furniture.reserved, pointsOffMap: annotatesPointsOffMap)
        // The legend's places are ranked by the points near them, but clusters gather points from farther away: the
        // places are tried in turn, and the one that leaves the fewest points hidden stays. Points hidden with no
        // legend at all (under higher-priority views, or the other furniture) no place can show: once a place hides
        // no more than that, the rest are not tried.
        if let legend = furniture.legend, annotated.hiddenPointsInView > 0 {
            let hiddenWithout = try annotator.annotate(
                camera, reserved: furniture.reserved(legendAt: nil), pointsOffMap: annotatesPointsOffMap
            ).hiddenPointsInView
            for place in furniture.alternatives where annotated.hiddenPointsInView > hiddenWithout {
                let trial = try annotator.annotate(
                    camera, reserved: furniture.reserved(legendAt: place.frame), pointsOffMap: annotatesPointsOffMap)
                guard trial.hiddenPointsInView < annotated.hiddenPointsInView else { continue }
                annotated = trial
                furniture.legend = PlacedLegend(legend.legend, corner: place.corner, frame: place.frame)
            }
        }
        // On a thumbnail, furniture that would hide most of the points goes over them instead: each small piece alone,
        // then all.
        if 2 * annotated.hiddenPointsInView > annotated.pointsInView {
            for pieces in furniture.piecesThatMayGiveWay(width: camera.width, height: camera.height) {
                var clear = furniture
                clear.overMarkers.formUnion(pieces)
                let trial = try annotator.annotate(
                    camera, reserved: clear.reserved, pointsOffMap: annotatesPointsOffMap)
                if furniture.givesWay(
                    pieces, freeing: annotated.hiddenPointsInView - trial.hiddenPointsInView,
                    of: annotated.pointsInView, width: camera.width, height: camera.height)
                {
                    annotated = trial
                    break
                }
            }
        }
        return (furniture, annotated)
    }

    /// Fetches the tiles and draws the map laid out by ``layOut(camera:annotator:renderer:)``.
    private func render(
        _ furniture: FurnitureLayout, _ annotated: AnnotatedMap, camera: MapCamera, annotator: MapAnnotator,
        format: OutputFormat, renderer: StaticMapRenderer, pointsUnderFurniture: [(name: String, points: Int)]
    ) throws -> DrawnMap {
        let basemap: Basemap
        switch self.basemap {
        case .none: basemap = .none
        case .world: basemap = .world
        case let .tiles(source):
            // Fetched before the canvas is allocated, so that a refused map costs nothing.
            let tiles = try source.tiles(
                for: camera, scale: StaticMapRenderer.tileScale(camera: camera, scale: scale, format: format),
                limit: maxTiles)
            if missingTiles == .fail { try tiles.refuseMissing() }
            basemap = .tiles(tiles)
        case let .fetched(tiles):
            if missingTiles == .fail { try tiles.refuseMissing() }
            basemap = .tiles(tiles)
        }
        var map = StaticMap(
            camera: camera, scale: scale, basemap: basemap, overlays: overlays, annotations: annotated.annotations,
            scaleBar: self.furniture.scaleBar, attribution: self.furniture.attribution)
        map.missingTiles = missingTiles
        map.legend = furniture.legend.map { ($0.legend, $0.frame.x, $0.frame.y) }
        map.compass = furniture.compass
        map.furnitureFrames = furniture.frames
        let (canvas, warnings) = try renderer.render(map, format: format)
        // Above the embedded map's detail zoom its land and water still beat a plain background; the note says so.
        let note = if case .world = self.basemap { WorldBasemap.note(forZoom: camera.zoom) } else { String?.none }
        var drawn = DrawnMap(
            canvas: canvas, camera: camera, content: annotated, points: annotator.points, legend: furniture.legend,
            warnings: warnings + furniture.warnings, basemapNote: note)
        drawn.furniture = furniture.frames
        drawn.pointsUnderFurniture = pointsUnderFurniture
        return drawn
    }

    /// The text printed in the bottom-right corner: the furniture's own, else the basemap's ("" prints none).
    var attribution: String? {
        switch basemap {
        case .none: furniture.attribution
        case .world: furniture.attribution ?? WorldBasemap.attribution
        case let .tiles(source): furniture.attribution ?? source.attribution
        case let .fetched(tiles): furniture.attribution ?? tiles.attribution
        }
    }
}
