import DeclutterPNG
import DeclutterSupport
import Foundation

/// A drawing target in points for one output format: a raster image at a scale factor, or an SVG or PDF document.
///
/// ```swift
/// let canvas = try Canvas(width: 40, height: 40, scale: 2, format: .png)   // 80×80 px
/// // … draw on canvas.context …
/// try canvas.write(to: URL(fileURLWithPath: "icon@2x.png"))
/// ```
public final class Canvas {
    /// The output format.
    public let format: OutputFormat
    /// The width in points.
    public let width: Double
    /// The height in points.
    public let height: Double
    /// Pixels per point for PNG output; vector output is drawn in points whatever the scale.
    public let scale: Double
    /// The context to draw on, in points.
    public let context: DrawingContext
    /// Whether the document has been finished (vector surfaces accept no drawing after that).
    private var finishedData: Data?

    /// Creates a canvas of `width`×`height` points; PNG canvases hold `ceil(width·scale)`×`ceil(height·scale)` pixels.
    ///
    /// - Throws: ``RenderError/sizeOutOfRange(width:height:limit:)`` for sizes beyond 16,384 px before allocating, or a
    /// cairo failure.
    public init(width: Double, height: Double, scale: Double = 1, format: OutputFormat) throws {
        guard width.isFinite, height.isFinite, scale.isFinite, scale > 0 else {
            throw RenderError.sizeOutOfRange(width: 0, height: 0, limit: Surface.maximumSide)
        }
        self.format = format
        self.width = width
        self.height = height
        self.scale = scale
        let surface: Surface
        switch format {
        case .png:
            let pixelWidth = (width * scale).rounded(.up), pixelHeight = (height * scale).rounded(.up)
            guard pixelWidth <= Double(Surface.maximumSide), pixelHeight <= Double(Surface.maximumSide) else {
                throw RenderError.sizeOutOfRange(
                    width: Int(min(pixelWidth, 1e9)), height: Int(min(pixelHeight, 1e9)),
                    limit: Surface.maximumSide)
            }
            surface = try Surface(imageWidth: Int(pixelWidth), height: Int(pixelHeight))
        case .svg, .pdf:
            surface = try Surface(vector: format, width: width, height: height)
        }
        context = try DrawingContext(surface: surface)
        if format == .png { context.scale(by: scale) }
    }

    /// The image surface behind a PNG canvas (vector canvases have none to read pixels from).
    public var surface: Surface { context.surface }

    /// Finishes drawing and returns the encoded file: PNG bytes, or the SVG or PDF document.
    public func data(encoder: PNGEncoder = PNGEncoder()) throws -> Data {
        if let finishedData { return finishedData }
        try context.checkStatus("draw")
        let data: Data
        switch format {
        case .png: data = try encoder.encode(surface)
        case .svg: data = Self.renumberingIdentifiers(try surface.finish())
        case .pdf: data = try surface.finish()
        }
        finishedData = data
        return data
    }

    /// Finishes drawing and writes the file atomically (temporary file, then rename).
    public func write(to url: URL, encoder: PNGEncoder = PNGEncoder()) throws {
        try FileSystem.writeAtomically(data(encoder: encoder), to: url)
    }

    /// Renumbers cairo's `surfaceN`/`imageN`/`patternN`… identifiers from 1 in order of appearance.
    ///
    /// cairo numbers them with process-wide counters, so the same drawing would otherwise give different SVG
    /// text depending on what the process drew before.
    static func renumberingIdentifiers(_ svg: Data) -> Data {
        let text = String(decoding: svg, as: UTF8.self)
        guard
            let expression = try? NSRegularExpression(
                pattern: #"(?<=id="|#)(surface|image|source|pattern|clip|mask)(\d+)\b"#)
        else {
            return svg
        }
        var numbers: [String: Int] = [:], nextNumber: [String: Int] = [:]
        var result = "", position = text.startIndex
        for match in expression.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let whole = Range(match.range, in: text), let prefixRange = Range(match.range(at: 1), in: text) else {
                continue
            }
            let prefix = String(text[prefixRange]), token = String(text[whole])
            let number: Int
            if let known = numbers[token] {
                number = known
            } else {
                number = (nextNumber[prefix] ?? 0) + 1
                nextNumber[prefix] = number
                numbers[token] = number
            }
            result += text[position..<whole.lowerBound] + "\(prefix)\(number)"
            position = whole.upperBound
        }
        result += text[position...]
        return Data(result.utf8)
    }
}
