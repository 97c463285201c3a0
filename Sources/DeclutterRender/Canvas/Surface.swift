import CCairo
import DeclutterGeometry
import DeclutterPNG
import DeclutterPlacement
import Foundation

/// Owns one cairo surface: an image in memory, or an SVG or PDF document streamed into memory.
public final class Surface {
    /// The cairo handle; valid for the surface's lifetime.
    let handle: OpaquePointer
    /// Collects the bytes a vector surface writes; nil for image surfaces.
    private let sink: ByteSink?
    /// The surface whose pixels a band surface draws into, kept alive with it.
    private let owner: Surface?

    /// The largest width or height in pixels any surface may have.
    public static let maximumSide = 16_384

    /// Creates a transparent ARGB image surface of `width`×`height` pixels.
    ///
    /// - Throws: ``RenderError/sizeOutOfRange(width:height:limit:)`` before allocating anything, or a cairo failure.
    public init(imageWidth width: Int, height: Int) throws {
        try Self.checkSize(width: width, height: height)
        handle = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        sink = nil
        owner = nil
        try checkStatus("create an image surface")
    }

    /// An image surface over rows `rows` of `parent`'s pixels, sharing its memory.
    ///
    /// Bands over separate rows are separate cairo objects, so separate threads may draw into them at once; call
    /// ``markDirty()`` on the parent when they are done.
    init(bandOf parent: Surface, rows: Range<Int>) throws {
        cairo_surface_flush(parent.handle)
        let stride = cairo_image_surface_get_stride(parent.handle)
        guard let data = cairo_image_surface_get_data(parent.handle), rows.lowerBound >= 0,
            rows.upperBound <= parent.pixelHeight,
            !rows.isEmpty
        else {
            throw RenderError.cairo(operation: "create a band surface", status: "rows \(rows) outside the image")
        }
        handle = cairo_image_surface_create_for_data(
            data + rows.lowerBound * Int(stride), CAIRO_FORMAT_ARGB32,
            Int32(parent.pixelWidth), Int32(rows.count), stride)
        sink = nil
        owner = parent
        try checkStatus("create a band surface")
    }

    /// An image surface over premultiplied ARGB32 pixels owned by the caller, who keeps them alive and unchanged
    /// while the surface is used.
    init(wrapping pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int) throws {
        try Self.checkSize(width: width, height: height)
        handle = cairo_image_surface_create_for_data(
            pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(width),
            Int32(height), Int32(stride))
        sink = nil
        owner = nil
        try checkStatus("wrap kept pixels")
    }

    /// Tells cairo that the pixels changed behind its back (through band surfaces).
    func markDirty() { cairo_surface_mark_dirty(handle) }

    /// Finishes pending drawing so the pixels in memory are complete.
    func flush() { cairo_surface_flush(handle) }

    /// Creates a surface for a vector format, `width`×`height` points, writing into memory.
    init(vector format: OutputFormat, width: Double, height: Double) throws {
        try Self.checkSize(width: Int(width.rounded(.up)), height: Int(height.rounded(.up)))
        owner = nil
        let sink = ByteSink()
        let closure = Unmanaged.passUnretained(sink).toOpaque()
        let write = ByteSink.write
        switch format {
        case .svg:
            handle = cairo_svg_surface_create_for_stream(write, closure, width, height)
            // Sizes in px with a viewBox in points: browsers then show the image at its point size.
            cairo_svg_surface_set_document_unit(handle, CAIRO_SVG_UNIT_PX)
        case .pdf:
            handle = cairo_pdf_surface_create_for_stream(write, closure, width, height)
            // A fixed creation date keeps PDF output byte-for-byte reproducible.
            cairo_pdf_surface_set_metadata(handle, CAIRO_PDF_METADATA_CREATE_DATE, "2000-01-01T00:00:00Z")
            cairo_pdf_surface_set_metadata(handle, CAIRO_PDF_METADATA_CREATOR, "Declutter")
        case .png:
            preconditionFailure("PNG surfaces are image surfaces")
        }
        self.sink = sink
        try checkStatus("create a \(format.rawValue.uppercased()) surface")
    }

    /// Loads a PNG file into an image surface.
    ///
    /// - Throws: ``RenderError/unreadableImage(path:reason:)`` when the file is missing or not a PNG.
    public convenience init(pngFile path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RenderError.unreadableImage(path: path, reason: "no such file or not readable")
        }
        try self.init(pngData: data, source: path)
    }

    /// Decodes PNG bytes into an image surface: the pixels cairo's own loader gives, faster (see ``PNGDecoder``).
    ///
    /// Images with an alpha channel or a transparent colour become ARGB32 surfaces, others RGB24, as cairo makes them.
    /// - Throws: ``RenderError/unreadableImage(path:reason:)`` naming `source` when the bytes are not a PNG, are
    ///   damaged or exceed `maximumSide` (default ``maximumSide``), checked before the pixels are allocated.
    public init(pngData data: Data, source: String, maximumSide: Int = Surface.maximumSide) throws {
        let file: PNGDecoder.File
        do {
            file = try PNGDecoder.File(data)
        } catch let error as PNGDecoder.DecodingError {
            throw RenderError.unreadableImage(path: source, reason: error.description)
        }
        let width = file.width, height = file.height
        let limit = min(maximumSide, Self.maximumSide)
        guard width <= limit, height <= limit else {
            throw RenderError.unreadableImage(
                path: source, reason: "the image size \(width)×\(height) is over \(limit) px per side")
        }
        handle = cairo_image_surface_create(
            file.hasAlpha ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24, Int32(width), Int32(height))
        sink = nil
        owner = nil
        // From here a throw runs deinit, which releases the surface.
        try checkStatus("create an image surface")
        let stride = Int(cairo_image_surface_get_stride(handle))
        guard let pixels = cairo_image_surface_get_data(handle) else {
            throw RenderError.cairo(operation: "create an image surface", status: "no pixel memory")
        }
        do {
            // Straight into the surface's memory: no image in between.
            try file.decode(
                into: UnsafeMutableRawBufferPointer(start: pixels, count: stride * height), rowBytes: stride,
                layout: .premultipliedARGB32)
        } catch let error as PNGDecoder.DecodingError {
            throw RenderError.unreadableImage(path: source, reason: error.description)
        }
        cairo_surface_mark_dirty(handle)
        // As cairo's loader does: SVG and PDF output then embed the file as it came instead of encoding it again.
        if let copy = malloc(max(1, data.count)) {
            data.copyBytes(to: copy.assumingMemoryBound(to: UInt8.self), count: data.count)
            cairo_surface_set_mime_data(
                handle, "image/png", copy.assumingMemoryBound(to: UInt8.self), UInt(data.count), free, copy)
        }
    }

    deinit { cairo_surface_destroy(handle) }

    /// The width in pixels (image surfaces; 0 for vector surfaces).
    public var pixelWidth: Int { Int(cairo_image_surface_get_width(handle)) }
    /// The height in pixels (image surfaces; 0 for vector surfaces).
    public var pixelHeight: Int { Int(cairo_image_surface_get_height(handle)) }

    /// Calls `body` with the premultiplied ARGB32 pixels (native-endian 32-bit words) and the row stride in bytes.
    public func withPixels<Result>(_ body: (UnsafeBufferPointer<UInt8>, _ stride: Int) throws -> Result) rethrows
        -> Result
    {
        cairo_surface_flush(handle)
        let stride = Int(cairo_image_surface_get_stride(handle))
        guard let base = cairo_image_surface_get_data(handle) else {
            return try body(UnsafeBufferPointer(start: nil, count: 0), stride)
        }
        return try body(UnsafeBufferPointer(start: base, count: stride * pixelHeight), stride)
    }

    /// Calls `body` with writable premultiplied ARGB32 pixels and the row stride, then tells cairo they changed.
    public func withMutablePixels<Result>(_ body: (UnsafeMutableBufferPointer<UInt8>, _ stride: Int) throws -> Result)
        rethrows -> Result
    {
        cairo_surface_flush(handle)
        defer { cairo_surface_mark_dirty(handle) }
        let stride = Int(cairo_image_surface_get_stride(handle))
        return try body(
            UnsafeMutableBufferPointer(start: cairo_image_surface_get_data(handle), count: stride * pixelHeight), stride
        )
    }

    /// All pixels as straight-alpha RGBA bytes, row by row without padding.
    public func straightRGBA() -> [UInt8] {
        let width = pixelWidth, height = pixelHeight
        return withPixels { pixels, stride in
            guard pixels.baseAddress != nil else { return [] }
            return PixelLayout.straightRGBA(
                fromPremultiplied: UnsafeRawBufferPointer(pixels), width: width, height: height, rowBytes: stride)
        }
    }

    /// The pixel at (x, y) as straight-alpha RGBA bytes.
    public func rgba(x: Int, y: Int) -> [UInt8] {
        withPixels { pixels, stride in
            let offset = y * stride + x * 4
            let word =
                UInt32(pixels[offset]) | UInt32(pixels[offset + 1]) << 8 | UInt32(pixels[offset + 2]) << 16 | UInt32(
                    pixels[offset + 3]) << 24
            return PixelLayout.unpremultiply(word)
        }
    }

    /// The image encoded by cairo's own PNG writer (libpng with its default settings): a reference point for
    /// ``PNGEncoder``, which is faster.
    public func cairoPNGData() throws -> Data {
        let sink = ByteSink()
        let status = withExtendedLifetime(sink) {
            cairo_surface_write_to_png_stream(handle, ByteSink.write, Unmanaged.passUnretained(sink).toOpaque())
        }
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError.cairo(operation: "write PNG", status: String(cString: cairo_status_to_string(status)))
        }
        return sink.data
    }

    /// Ends drawing and returns what a vector surface wrote (empty for image surfaces).
    func finish() throws -> Data {
        cairo_surface_finish(handle)
        try checkStatus("finish the surface")
        return sink?.data ?? Data()
    }

    /// Throws if the surface is in an error state.
    func checkStatus(_ operation: String) throws {
        let status = cairo_surface_status(handle)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError.cairo(operation: operation, status: String(cString: cairo_status_to_string(status)))
        }
    }

    /// Refuses sizes outside 1…``maximumSide`` before anything is allocated.
    static func checkSize(width: Int, height: Int) throws {
        guard (1...maximumSide).contains(width), (1...maximumSide).contains(height) else {
            throw RenderError.sizeOutOfRange(width: width, height: height, limit: maximumSide)
        }
    }
}

/// Bytes written by a cairo stream surface.
final class ByteSink {
    var data = Data()

    /// cairo's write callback: `closure` is an unretained `ByteSink`.
    static let write: cairo_write_func_t = { closure, bytes, length in
        guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
        Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue().data.append(bytes, count: Int(length))
        return CAIRO_STATUS_SUCCESS
    }
}
