import DeclutterGeometry
import DeclutterMapContent
import DeclutterPNG
import DeclutterStyle
import DeclutterSupport
import Foundation

/// Draws cluster icons and balloon markers in a style, reusing shaped text and decoded glyphs across calls.
///
/// ```swift
/// let style = try MarkerStyle.load(contentsOf: URL(fileURLWithPath: "Styles/tandm.json"))
/// let renderer = try MarkerRenderer(style: style)
/// let counts = CategoryCounts([("bicycle", 3), ("tricycle", 2)])
/// let png = try renderer.render(counts, scale: 2, format: .png)   // 80×80 px
/// ```
/// One renderer serves one task at a time; make one per task for parallel work. It is not `Sendable`: its Pango
/// context is not thread-safe and its caches of text, glyphs and discs change as it draws, so sharing one would need
/// a lock around every icon, which would serialise the work a renderer per task does in parallel.
public final class MarkerRenderer {
    /// The style drawn.
    public let style: MarkerStyle
    /// Shapes and caches count labels and text glyphs.
    let text: TextEngine
    /// Decoded glyph images by resolved path.
    private var glyphs: [String: TemplateGlyph] = [:]
    /// Pre-rendered discs for raster cluster icons.
    private let discs = DiscCache()
    /// Pre-rendered balloons by category and device scale, for raster targets at whole-pixel positions.
    private var balloonImages: [BalloonKey: Surface] = [:]

    /// A pre-rendered balloon's category (its index in the style) and device scale.
    private struct BalloonKey: Hashable {
        var category: Int
        var scale: Double
    }
    /// The style's categories by name, for constant-time lookups while drawing.
    private let categoryIndex: [String: Int]

    /// Creates a renderer for a validated style.
    public init(style: MarkerStyle) throws {
        self.style = style
        text = try TextEngine()
        categoryIndex = Dictionary(
            style.categories.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The geometry of the image for these counts: a balloon for one member, a cluster icon otherwise.
    public func geometry(for counts: CategoryCounts) -> MarkerGeometry {
        guard counts.total == 1, let entry = counts.entries.first(where: { $0.count == 1 }),
            let index = categoryIndex[entry.name]
        else {
            return style.markerGeometry(count: counts.total)
        }
        return style.balloonGeometry(scale: style.categories[index].balloonScale)
    }

    /// Encodes the marker for these counts as PNG (at `scale` pixels per point), SVG or PDF.
    ///
    /// `label` replaces a cluster's count text (a sprite sheet's `100+`); balloons ignore it.
    public func render(
        _ counts: CategoryCounts, label: String? = nil, scale: Double = 1, format: OutputFormat,
        encoder: PNGEncoder = PNGEncoder()
    ) throws -> Data {
        try canvas(counts, label: label, scale: scale, format: format).data(encoder: encoder)
    }

    /// A finished canvas holding the marker for these counts; for PNG its ``Canvas/surface`` has the pixels.
    public func canvas(_ counts: CategoryCounts, label: String? = nil, scale: Double = 1, format: OutputFormat = .png)
        throws -> Canvas
    {
        let geometry = geometry(for: counts)
        let canvas = try Canvas(width: geometry.width, height: geometry.height, scale: scale, format: format)
        try draw(counts, label: label, in: canvas.context, scale: scale)
        try canvas.context.checkStatus("draw a marker")
        return canvas
    }

    /// Draws the marker with its top-left corner at the context's origin.
    ///
    /// `scale` picks glyph images (the @2x variant from 1.5 up); the context's transform does the scaling.
    /// - Throws: ``CountsError`` for a category the style lacks or a total below 1.
    public func draw(_ counts: CategoryCounts, label: String? = nil, in context: DrawingContext, scale: Double = 1)
        throws
    {
        var indexed = [Int](repeating: 0, count: style.categories.count)
        for entry in counts.entries where entry.count > 0 {
            guard let index = categoryIndex[entry.name] else {
                throw CountsError(
                    "unknown category \"\(entry.name.escapedForTerminal)\"; the style has: \(style.categories.map(\.name).nameList())"
                )
            }
            indexed[index] += entry.count
        }
        try draw(categoryCounts: indexed, label: label, in: context, scale: scale)
    }

    /// Draws the marker for members counted by the style's category index (as ``MapAnnotation`` carries them) with
    /// its top-left corner at the context's origin.
    ///
    /// - Throws: ``CountsError`` for counts that add up to less than 1.
    public func draw(categoryCounts counts: [Int], label: String? = nil, in context: DrawingContext, scale: Double = 1)
        throws
    {
        let total = counts.reduce(0, +)
        switch total {
        case ..<1:
            throw CountsError("the counts must add up to at least 1")
        case 1:
            let index = counts.firstIndex(of: 1) ?? 0
            if let device = context.pixelAlignedTransform {
                // A map shows the same few balloons many times: drawn once per category, then copied.
                context.paintPixels(
                    try balloonImage(category: index, scale: device.scale), deviceX: device.originX,
                    deviceY: device.originY)
            } else {
                let size = style.categories[index].balloonScale
                context.save()
                context.scale(by: size)
                try drawBalloon(style.categories[index], in: context, scale: scale * size)
                context.restore()
            }
        default:
            try drawCluster(counts, total: total, label: label, in: context)
        }
    }

    /// The cluster icon: the outer disc in category slices, the inner disc, the count centred by its ink.
    func drawCluster(_ counts: [Int], total: Int, label: String?, in context: DrawingContext) throws {
        let bucket = style.cluster.bucket(for: total)
        let present = style.categories.indices.filter { $0 < counts.count && counts[$0] > 0 }.map {
            (category: style.categories[$0], count: counts[$0])
        }
        // The disc's base colour and the slices painted over it. The last category fills the whole disc and the
        // others are painted over it, so no background shows through anti-aliased seams (TANDm's drawing order).
        let base: RGBAColor
        var slices: [(color: RGBAColor, start: Double, sweep: Double)] = []
        if let solid = present.first(where: \.category.solidCluster) {
            base = solid.category.color
        } else {
            base = present.last?.category.color ?? .black
            var angle = 0.0
            for (category, count) in present.dropLast() {
                let sweep = 2 * Double.pi * Double(count) / Double(total)
                slices.append((category.color, angle, sweep))
                angle += sweep
            }
        }
        if let device = context.pixelAlignedTransform {
            try drawDiscsFromCache(bucket: bucket, base: base, slices: slices, in: context, device: device)
        } else {
            drawDiscsAsPaths(bucket: bucket, base: base, slices: slices, in: context)
        }
        let radius = bucket.diameter / 2
        let text = label ?? style.cluster.label(for: total)
        let layout = try fittedLayout(text, size: bucket.fontSize, maxWidth: bucket.maxTextWidth)
        context.show(
            layout, x: radius - layout.inkExtents.midX, y: radius - layout.inkExtents.midY,
            color: style.cluster.textColor)
    }

    /// Vector drawing of the discs: for SVG, PDF and raster targets at fractional positions.
    private func drawDiscsAsPaths(
        bucket: ClusterSizeBucket, base: RGBAColor,
        slices: [(color: RGBAColor, start: Double, sweep: Double)], in context: DrawingContext
    ) {
        let radius = bucket.diameter / 2
        context.newPath()
        context.circle(centerX: radius, centerY: radius, radius: radius)
        context.fill(base)
        for slice in slices {
            context.move(toX: radius, y: radius)
            context.arc(
                centerX: radius, centerY: radius, radius: radius, start: slice.start, end: slice.start + slice.sweep)
            context.closePath()
            context.fill(slice.color)
        }
        if bucket.innerDiameter > 0 {
            context.circle(centerX: radius, centerY: radius, radius: bucket.innerDiameter / 2)
            context.fill(style.cluster.innerColor)
        }
    }

    /// Raster drawing from pre-rendered discs: each slice is its colour's disc seen through a wedge polygon,
    /// so the round edge keeps the disc's anti-aliasing and only the straight edges are scan-converted.
    private func drawDiscsFromCache(
        bucket: ClusterSizeBucket, base: RGBAColor,
        slices: [(color: RGBAColor, start: Double, sweep: Double)], in context: DrawingContext,
        device: (scale: Double, originX: Double, originY: Double)
    ) throws {
        let diameter = bucket.diameter, radius = diameter / 2
        let baseDisc = try discs.disc(
            canvasDiameter: diameter, discDiameter: diameter, color: base, scale: device.scale)
        context.paintPixels(baseDisc, deviceX: device.originX, deviceY: device.originY)
        for slice in slices {
            let disc = try discs.disc(
                canvasDiameter: diameter, discDiameter: diameter, color: slice.color, scale: device.scale)
            // A polygon around the sector: corners at twice the radius, no more than a right angle apart,
            // always lie outside the circle, so the polygon covers the whole sector.
            let reach = 2 * radius
            let steps = max(1, Int((slice.sweep / (Double.pi / 2)).rounded(.up)))
            context.newPath()
            context.move(toX: radius, y: radius)
            for step in 0...steps {
                let angle = slice.start + slice.sweep * Double(step) / Double(steps)
                context.line(toX: radius + reach * cos(angle), y: radius + reach * sin(angle))
            }
            context.closePath()
            context.fillPath(withPixels: disc, deviceX: device.originX, deviceY: device.originY)
        }
        if bucket.innerDiameter > 0 {
            let inner = try discs.disc(
                canvasDiameter: diameter, discDiameter: bucket.innerDiameter,
                color: style.cluster.innerColor, scale: device.scale)
            context.paintPixels(inner, deviceX: device.originX, deviceY: device.originY)
        }
    }

    /// A category's balloon drawn into its own image at a device scale, on first use.
    private func balloonImage(category index: Int, scale: Double) throws -> Surface {
        let key = BalloonKey(category: index, scale: scale)
        if let cached = balloonImages[key] { return cached }
        // A category's balloon may be drawn smaller or larger than the style's (a static map's pin-s).
        let size = style.categories[index].balloonScale
        let surface = try Surface(
            imageWidth: Int((style.balloon.width * size * scale).rounded(.up)),
            height: Int((style.balloon.height * size * scale).rounded(.up)))
        let context = try DrawingContext(surface: surface)
        context.scale(by: scale * size)
        try drawBalloon(style.categories[index], in: context, scale: scale * size)
        try context.checkStatus("draw a balloon")
        balloonImages[key] = surface
        return surface
    }

    /// The balloon: a round head over a tail whose tip is the point, the glyph in the head.
    func drawBalloon(_ category: MarkerCategory, in context: DrawingContext, scale: Double) throws {
        let balloon = style.balloon
        let radius = balloon.width / 2
        // The outline is stroked inside the shape so the image keeps its exact size.
        let inset = balloon.strokeWidth / 2
        let headRadius = radius - inset
        let tipY = balloon.height - inset
        let opening = acos(headRadius / (tipY - radius))
        context.newPath()
        context.arc(
            centerX: radius, centerY: radius, radius: headRadius,
            start: Double.pi / 2 + opening, end: 2 * Double.pi + Double.pi / 2 - opening)
        context.line(toX: radius, y: tipY)
        context.closePath()
        if balloon.strokeWidth > 0 {
            context.fillPreserving(category.color)
            context.stroke(category.color.scaled(by: balloon.strokeShade), width: balloon.strokeWidth)
        } else {
            context.fill(category.color)
        }

        let glyphColor = category.glyphColor ?? balloon.glyphColor
        switch category.glyph {
        case let .image(path, path2x):
            let useDouble = scale >= 1.5 && path2x != nil
            let glyph = try templateGlyph(useDouble ? path2x ?? path : path)
            glyph.draw(
                in: context, centerX: radius, centerY: radius, size: balloon.glyphSize, color: glyphColor)
        case let .text(label):
            let layout = try fittedLayout(label, size: balloon.glyphSize, maxWidth: balloon.glyphSize)
            context.show(
                layout, x: radius - layout.inkExtents.midX, y: radius - layout.inkExtents.midY,
                color: glyphColor)
        case nil:
            context.circle(centerX: radius, centerY: radius, radius: balloon.glyphSize / 4)
            context.fill(glyphColor)
        }
    }

    /// The layout of `label` at `size`, or at the largest smaller size, in steps of a quarter point,
    /// whose ink fits `maxWidth`.
    ///
    /// The steps keep the number of distinct font sizes small: every size is a separate cairo scaled font
    /// with its own glyph cache, and a size per label would re-rasterise glyphs for every icon.
    /// The font size a cluster icon of `bucket` draws `label` at: the bucket's, or smaller where the label is wider
    /// than the bucket's `maxTextWidth`.
    public func countFontSize(_ label: String, bucket: ClusterSizeBucket) throws -> Double {
        try fittedSize(label, size: bucket.fontSize, maxWidth: bucket.maxTextWidth).size
    }

    /// The label at the largest size up to `size` whose ink fits `maxWidth`, and that size.
    private func fittedSize(_ label: String, size: Double, maxWidth: Double) throws -> (
        layout: TextLayout, size: Double
    ) {
        let layout = try text.layout(label, family: style.font, size: size)
        let width = layout.inkExtents.width
        guard width > maxWidth else { return (layout, size) }
        // Unhinted outlines scale linearly, so the proportional size fits; rounding down keeps it fitting.
        let fitted = max(0.25, (size * maxWidth / width * 4).rounded(.down) / 4)
        return (try text.layout(label, family: style.font, size: fitted), fitted)
    }

    /// The label laid out as ``fittedSize(_:size:maxWidth:)`` fits it.
    /// How many characters of a cluster label no font has a glyph for (drawn as boxes), as the smallest icon
    /// shapes it.
    public func unknownGlyphCount(inLabel label: String) throws -> Int {
        guard let bucket = style.cluster.buckets.first else { return 0 }
        return try fittedLayout(label, size: bucket.fontSize, maxWidth: bucket.maxTextWidth).unknownGlyphCount
    }

    func fittedLayout(_ label: String, size: Double, maxWidth: Double) throws -> TextLayout {
        try fittedSize(label, size: size, maxWidth: maxWidth).layout
    }

    /// A glyph image (a path as the style gives it), decoded on first use from the bytes the style read.
    private func templateGlyph(_ path: String) throws -> TemplateGlyph {
        if let cached = glyphs[path] { return cached }
        guard let bytes = style.glyphImages[path] else {
            throw RenderError.unreadableImage(path: path, reason: "the style holds no such glyph image")
        }
        let glyph = try TemplateGlyph(pngData: bytes, source: style.resolve(path).path)
        glyphs[path] = glyph
        return glyph
    }
}

/// Not to be shared across tasks (see ``MarkerRenderer``): the compiler says so where one would be.
@available(*, unavailable)
extension MarkerRenderer: Sendable {}
