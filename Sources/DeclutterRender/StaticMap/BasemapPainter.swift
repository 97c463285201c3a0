import DeclutterBasemap
import DeclutterGeometry
import DeclutterMapContent
import DeclutterPlacement
import DeclutterStyle
import Foundation

/// Draws the embedded basemap for one map: the band for the map's zoom, only the cells in view (each copy across
/// the antimeridian too), each layer as one path so that cells meet without seams.
struct BasemapPainter {
    let file: BasemapFile
    let style: MapStyle
    let camera: MapCamera

    /// A visible cell and the whole worlds it is shifted by.
    private typealias Placed = (cell: BasemapCell, copy: Double)

    /// Sea, land, lakes, rivers, state and country borders.
    ///
    /// A pitched map's far rows, where the ground shows at less than 1/√2 of the centre's size, take the detail of the
    /// zoom below, as its tiles do (each row's zoom is the nearest to its scale): the ground there is wide and its
    /// finer detail would cost the most vertices for the least to see.
    /// - Parameter scale: pixels per point; a 2× map reads the band of the next zoom, as its pixels are that fine.
    func draw(scale: Double, in context: DrawingContext) throws {
        context.paint(style.sea)
        let detail = camera.zoom + log2(max(1, scale)), perspective = camera.perspective
        guard !perspective.isFlat else {
            return try drawLayers(
                zoom: camera.zoom, band: file.band(forZoom: detail), bounds: camera.visibleWorldBounds, scale: scale,
                in: context)
        }
        // On a whole device row, so that the two parts meet without a seam.
        let split = min(camera.height, max(0, (perspective.row(atScale: 0.5.squareRoot()) * scale).rounded() / scale))
        for (top, bottom, zoomOffset) in [(0, split, -1.0), (split, camera.height, 0)] where bottom > top {
            var bounds = WorldBounds()
            for (x, y) in [(0, top), (camera.width, top), (0, bottom), (camera.width, bottom)] {
                let world = camera.worldPoint(atX: x, y: y)
                bounds.include(x: world.x, y: world.y)
            }
            context.save()
            context.newPath()
            context.rectangle(x: 0, y: top, width: camera.width, height: bottom - top)
            context.clip()
            try drawLayers(
                zoom: camera.zoom + zoomOffset, band: file.band(forZoom: detail + zoomOffset), bounds: bounds,
                scale: scale, in: context)
            context.restore()
        }
    }

    /// The layers of the cells of `band` within `bounds`, with the features shown from `zoom`, at `scale` pixels per
    /// point.
    private func drawLayers(zoom: Double, band: Int, bounds: WorldBounds, scale: Double, in context: DrawingContext)
        throws
    {
        let cells = try visibleCells(band: band, bounds: bounds)
        let size = camera.worldSize, (centerX, centerY) = camera.centerWorld
        let water = style.water ?? style.sea
        context.save()
        defer { context.restore() }
        let projection = camera.projection, clip = NearClip(camera.perspective), tolerance = 0.5 / scale
        // Only what lies in the box around the view is drawn; eight points wider on each side, so that the cuts and the
        // caps of the lines cut there stay out of sight.
        let margin = 8 / size
        var wider = bounds
        wider.include(x: bounds.minX - margin, y: bounds.minY - margin)
        wider.include(x: bounds.maxX + margin, y: bounds.maxY + margin)
        let box = WorldClip(box: wider)
        if clip == nil {
            context.translate(x: camera.width / 2, y: camera.height / 2)
            if camera.bearing != 0 { context.rotate(by: -camera.bearing * Double.pi / 180) }
        }

        /// Adds a ring or line in world units to the current path.
        func add(_ points: [(x: Double, y: Double)], closed: Bool) {
            guard let clip else {
                for (index, point) in points.enumerated() {
                    // Offsets from the centre in doubles: cairo's fixed point cannot hold world units times 2^zoom.
                    let x = (point.x - centerX) * size, y = (point.y - centerY) * size
                    if index == 0 { context.move(toX: x, y: y) } else { context.line(toX: x, y: y) }
                }
                if closed { context.closePath() }
                return
            }
            // Pitched: each vertex tilted on its own (straight edges stay straight), cut before the camera.
            let flat = points.map { projection.flatPoint(worldX: $0.x, worldY: $0.y) }
            for piece in closed ? [clip.ring(flat)] : clip.polyline(flat) {
                // The band is simplified to half a pixel at the centre's scale; where the ground recedes its
                // vertices crowd, and those within half a device pixel of the last one drawn are left out.
                var last = (x: -Double.infinity, y: -Double.infinity)
                for (index, point) in piece.enumerated() {
                    let tilted = projection.perspective.point(flatX: point.x, flatY: point.y)
                    if index == 0 {
                        context.move(toX: tilted.x, y: tilted.y)
                    } else if index == piece.count - 1 || abs(tilted.x - last.x) + abs(tilted.y - last.y) >= tolerance {
                        context.line(toX: tilted.x, y: tilted.y)
                    } else {
                        continue
                    }
                    last = tilted
                }
                if closed, !piece.isEmpty { context.closePath() }
            }
        }

        /// Adds a layer's paths of every visible cell, cut to the box, to one path; false when none reached the box.
        /// Dashed lines are kept whole, so that their dashes start where the line does, wherever the map is.
        func trace(_ layer: BasemapCell.Layer, closed: Bool, dashed: Bool = false) -> Bool {
            context.newPath()
            var any = false
            for (cell, copy) in cells {
                for path in cell[layer] where path.minZoom <= zoom {
                    let overlap = box.overlap(path.bounds, copy: copy)
                    guard overlap != .outside else { continue }
                    let points = copy == 0 ? path.points : path.points.map { ($0.x + copy, $0.y) }
                    for piece in overlap == .inside || dashed
                        ? [points] : closed ? [box.ring(points)] : box.polyline(points)
                    where piece.count >= (closed ? 3 : 2) {
                        any = true
                        add(piece, closed: closed)
                    }
                }
            }
            return any
        }

        if let fill = style.land.fill, trace(.land, closed: true) {
            context.fillEvenOdd(fill.withOpacity(style.land.opacity))
        }
        if trace(.lakes, closed: true) { context.fillEvenOdd(water) }
        // Rivers thin out with the zoom: further out there are more of them per inch and they would crowd the land.
        let riverWidth = style.riverWidth * (zoom < 5 ? 0.5 : zoom < 8 ? 0.75 : 1)
        if riverWidth > 0, trace(.rivers, closed: false) { context.strokeRound(water, width: riverWidth) }
        let state = style.stateBorder
        if state.width > 0, trace(.states, closed: false, dashed: true) {
            context.strokeDashed(
                state.stroke.withOpacity(state.opacity), width: state.width,
                dash: [3 * state.width + 1, 2 * state.width + 1])
        }
        let country = style.countryBorder
        if country.width > 0, trace(.countries, closed: false) {
            context.strokeRound(
                country.stroke.withOpacity(country.opacity), width: country.width * (zoom < 4 ? 0.7 : 1))
        }
        context.newPath()
    }

    /// The cells of `band` within `bounds`, each once per copy of the world in view.
    private func visibleCells(band: Int, bounds: WorldBounds) throws -> [Placed] {
        let count = 1 << file.bands[band].level
        guard let (columns, rows) = bounds.gridCells(count: count) else { return [] }
        var cells: [Placed] = []
        for column in columns {
            // Columns past either edge of the world are the cells of a copy.
            let wrapped = ((column % count) + count) % count, copy = Double((column - wrapped) / count)
            for row in rows {
                if let cell = try file.cell(band: band, column: wrapped, row: row) { cells.append((cell, copy)) }
            }
        }
        return cells
    }

    /// The places named at the map's zoom that it shows, in rank order, with where they appear in map points.
    ///
    /// On a pitched map a place is named where the map at its row's scale would name it (far rows name what the zoom
    /// below names, as they draw its detail), and nothing behind the camera is named.
    func places() throws -> [(place: BasemapPlace, x: Double, y: Double)] {
        let bounds = camera.visibleWorldBounds, projection = camera.projection, perspective = camera.perspective,
            zoom = camera.zoom
        // The copies of the world in view; none where the view lies wholly north or south of it.
        guard let columns = bounds.gridCells(count: 1)?.columns else { return [] }
        var result: [(place: BasemapPlace, x: Double, y: Double)] = []
        for place in try file.places() {
            // Sorted by min zoom: the rest are for closer maps.
            guard place.minZoom <= zoom else { break }
            guard place.y >= bounds.minY, place.y <= bounds.maxY else { continue }
            for copy in columns {
                let x = place.x + Double(copy)
                guard x >= bounds.minX, x <= bounds.maxX else { continue }
                let flat = projection.flatPoint(worldX: x, worldY: place.y)
                if !perspective.isFlat {
                    guard flat.y < perspective.nearFlatY,
                        place.minZoom <= zoom + log2(min(1, perspective.scale(flatY: flat.y)))
                    else { continue }
                }
                let point = perspective.point(flatX: flat.x, flatY: flat.y)
                result.append((place, point.x, point.y))
            }
        }
        return result
    }

    /// The place names that fit around `annotations` and the `reserved` boxes, in rank order: bigger type for the
    /// places named from further out, each on a halo. Names go under the markers, and only where they keep clear of
    /// them: the map's lowest-priority layer.
    func drawPlaceNames(
        around annotations: [MapAnnotation], reserved: [PlaceLabeler.Box], text: TextEngine,
        in context: DrawingContext
    ) throws {
        var labeler = PlaceLabeler(
            width: camera.width, height: camera.height, annotations: annotations, reserved: reserved)
        let halo = 1.5
        for (place, x, y) in try places() {
            let layout = try text.layout(place.name, family: "DejaVu Sans", size: place.minZoom < 4 ? 11 : 10)
            let extents = layout.logicalExtents
            // Centred on the place, as OpenStreetMap names cities.
            let left = x - extents.width / 2, top = y - extents.height / 2
            guard labeler.place((left - halo, top - halo, extents.width + 2 * halo, extents.height + 2 * halo)) else {
                continue
            }
            context.showHalo(layout, x: left - extents.x, y: top - extents.y, color: style.placeHalo, width: 2 * halo)
            context.show(layout, x: left - extents.x, y: top - extents.y, color: style.placeLabel)
        }
    }
}
