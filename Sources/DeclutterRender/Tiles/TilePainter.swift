import DeclutterGeometry
import DeclutterMapContent
import DeclutterPNG
import DeclutterPlacement
import DeclutterStyle
import DeclutterSupport
import Foundation

/// Draws fetched raster tiles under a map: a flat map's tile by tile, each at its places; a pitched map's sampled row
/// by row (``PitchedTileLayer``). Missing and unreadable tiles become squares of the style's `missingTile` colour.
struct TilePainter {
    /// The map the tiles are drawn under.
    let camera: MapCamera
    /// Pixels per point the tiles were planned for (``StaticMapRenderer/tileScale(camera:scale:format:)``).
    let scale: Double
    /// The colour of a tile that could not be had.
    let missing: RGBAColor

    /// The largest tile image decoded, per side.
    static let maximumTileSide = 2048

    /// The most tiles decoded at once: 8 tiles of 2048² hold 128 MB, whatever the number of cores or tiles.
    static let tilesDecodedAtOnce = 8

    /// Draws the tiles' images, letting go of each image's bytes once it is drawn.
    ///
    /// - Returns: the tiles that are not readable PNG images, each with why.
    func draw(_ plan: TilePlan, images: inout [TileKey: Data], source: String, on canvas: Canvas) throws -> [TileKey:
        TileFailure]
    {
        guard camera.perspective.isFlat else {
            return try drawPitched(plan, images: &images, source: source, on: canvas)
        }
        // In SVG and PDF each tile would be an image of its own, whose edges a viewer smooths on their own: where two
        // meet within a pixel, the background shows through as a faint line along every tile edge. The tiles are drawn
        // into one image of the map at the tiles' scale instead, as a PNG map's pixels are, and that image is placed
        // once (as a pitched map's is); a map of more than 64 Mpx (256 MB as one image) keeps its tiles apart.
        let pixelWidth = Int((camera.width * scale).rounded(.up)),
            pixelHeight = Int((camera.height * scale).rounded(.up))
        guard canvas.format != .png, max(pixelWidth, pixelHeight) <= Surface.maximumSide,
            pixelWidth * pixelHeight <= 1 << 26
        else {
            return drawFlat(plan, images: &images, source: source, in: canvas.context)
        }
        let image = try Surface(imageWidth: pixelWidth, height: pixelHeight)
        let context = try DrawingContext(surface: image)
        context.scale(by: scale)
        let unreadable = drawFlat(plan, images: &images, source: source, in: context)
        canvas.context.drawImage(image, x: 0, y: 0, width: camera.width, height: camera.height)
        return unreadable
    }

    /// Decodes the fetched tiles a few at a time, in parallel, and draws each at its places as soon as it is decoded,
    /// so that no more than ``tilesDecodedAtOnce`` decoded tiles are held; a missing tile is a neutral square.
    ///
    /// - Returns: the tiles that are not readable PNG images, each with why.
    private func drawFlat(_ plan: TilePlan, images: inout [TileKey: Data], source: String, in context: DrawingContext)
        -> [TileKey: TileFailure]
    {
        var places: [TileKey: [TilePlan.Placement]] = [:], order: [TileKey] = []
        for placement in plan.tiles {
            if places[placement.key] == nil { order.append(placement.key) }
            places[placement.key, default: []].append(placement)
        }
        let size = camera.worldSize, tileWorld = 1 / Double(1 << plan.zoom), (centerX, centerY) = camera.centerWorld
        var unreadable: [TileKey: TileFailure] = [:]
        withMapTransform(in: context) {
            let batch = max(1, min(Cores.available, Self.tilesDecodedAtOnce))
            for start in stride(from: 0, to: order.count, by: batch) {
                let keys = Array(order[start..<min(order.count, start + batch)])
                // Each batch's bytes leave the dictionary, so what was fetched is let go as it is drawn.
                let data = keys.map { images.removeValue(forKey: $0) }
                let surfaces = concurrentMap(keys.count) { index -> Result<Surface, TileFailure>? in
                    guard let bytes = data[index] else { return nil }
                    return Self.decodeTile(bytes, key: keys[index], source: source)
                }
                for (index, key) in keys.enumerated() {
                    var surface: Surface?
                    switch surfaces[index] {
                    case let .success(decoded)?: surface = decoded
                    case let .failure(failure)?: unreadable[key] = failure
                    case nil: break
                    }
                    for placement in places[key] ?? [] {
                        // Offsets from the centre in points, computed in doubles: cairo's fixed point cannot hold world
                        // coordinates scaled by 2^zoom.
                        let x = (Double(placement.column) * tileWorld - centerX) * size
                        let y = (Double(placement.row) * tileWorld - centerY) * size
                        let side = tileWorld * size
                        if let surface {
                            context.drawImage(surface, x: x, y: y, width: side, height: side)
                        } else {
                            context.newPath()
                            context.rectangle(x: x, y: y, width: side, height: side)
                            context.fill(missing)
                        }
                    }
                }
            }
        }
        return unreadable
    }

    /// Decodes every fetched tile of a pitched map on every core and samples them under it (see ``PitchedTileLayer``);
    /// a PNG's pixels are sampled in place, a vector map gets the sampled image.
    ///
    /// All the plan's tiles are held decoded at once, as any row may need any of them: at most the plan's limit
    /// (`--max-tiles`), each at most twice the source's tile size a side.
    /// - Returns: the tiles that are not readable PNG images, each with why.
    private func drawPitched(_ plan: TilePlan, images: inout [TileKey: Data], source: String, on canvas: Canvas) throws
        -> [TileKey: TileFailure]
    {
        let keys = Array(Set(plan.tiles.map(\.key)))
        let data = keys.map { images.removeValue(forKey: $0) }
        let decoded = concurrentMap(keys.count) { index -> Result<Surface, TileFailure>? in
            data[index].map {
                Self.decodeTile($0, key: keys[index], source: source, maximumSide: 2 * plan.tilePixelSize)
            }
        }
        var surfaces: [TileKey: Surface] = [:], unreadable: [TileKey: TileFailure] = [:]
        for (key, result) in zip(keys, decoded) {
            switch result {
            case let .success(surface)?: surfaces[key] = surface
            case let .failure(failure)?: unreadable[key] = failure
            case nil: break
            }
        }
        let layer = PitchedTileLayer(
            camera: camera, scale: scale, tilePixelSize: plan.tilePixelSize, zoomRange: plan.zoomRange,
            tiles: surfaces, missing: missing)
        if canvas.format == .png {
            layer.draw(into: canvas.surface)
        } else {
            let image = try Surface(
                imageWidth: Int((camera.width * scale).rounded(.up)), height: Int((camera.height * scale).rounded(.up)))
            layer.draw(into: image)
            canvas.context.drawImage(image, x: 0, y: 0, width: camera.width, height: camera.height)
        }
        return unreadable
    }

    /// One tile's image; a tile that is not a readable PNG becomes a failure saying why.
    private static func decodeTile(_ data: Data, key: TileKey, source: String, maximumSide: Int = maximumTileSide)
        -> Result<Surface, TileFailure>
    {
        do {
            // A tile is at most 1,024 px (512 px @2x); a larger image from a server is refused before decoding.
            return .success(try Surface(pngData: data, source: "\(source) tile \(key)", maximumSide: maximumSide))
        } catch let RenderError.unreadableImage(_, reason) {
            return .failure(TileFailure("not a readable PNG image (\(data.count) bytes): \(reason)"))
        } catch {
            return .failure(TileFailure("not a readable PNG image (\(data.count) bytes): \(error)"))
        }
    }

    /// Sets the transform that turns the map about its centre, then calls `body`.
    private func withMapTransform(in context: DrawingContext, _ body: () throws -> Void) rethrows {
        context.save()
        context.translate(x: camera.width / 2, y: camera.height / 2)
        if camera.bearing != 0 { context.rotate(by: -camera.bearing * Double.pi / 180) }
        try body()
        context.restore()
    }
}
