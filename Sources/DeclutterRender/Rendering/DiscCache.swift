import DeclutterStyle

/// Pre-rendered filled discs, so raster cluster icons copy pixels instead of scan-converting circles.
///
/// A circle is the costliest shape cairo fills at icon size (about 10 µs for a 40 px disc against
/// about 1 µs to composite a ready image), and a style has only a few disc colours and sizes.
final class DiscCache {
    private struct Key: Hashable {
        var canvasDiameter: Double
        var discDiameter: Double
        var color: RGBAColor
        var scale: Double
    }

    private var discs: [Key: Surface] = [:]

    /// A transparent square image of `canvasDiameter · scale` pixels with a disc of `discDiameter` points centred in
    /// it.
    func disc(canvasDiameter: Double, discDiameter: Double, color: RGBAColor, scale: Double) throws -> Surface {
        let key = Key(canvasDiameter: canvasDiameter, discDiameter: discDiameter, color: color, scale: scale)
        if let cached = discs[key] { return cached }
        let side = Int((canvasDiameter * scale).rounded(.up))
        let surface = try Surface(imageWidth: side, height: side)
        let context = try DrawingContext(surface: surface)
        context.scale(by: scale)
        context.circle(centerX: canvasDiameter / 2, centerY: canvasDiameter / 2, radius: discDiameter / 2)
        context.fill(color)
        try context.checkStatus("draw a disc")
        // Styles have a handful of colours and sizes; the bound only guards against unbounded scale variety.
        if discs.count >= 256 { discs.removeAll() }
        discs[key] = surface
        return surface
    }
}
