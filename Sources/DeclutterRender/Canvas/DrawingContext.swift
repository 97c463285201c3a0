import CCairo
import DeclutterStyle
import Foundation

/// Owns one cairo drawing context on a surface and offers the path and fill operations the renderers use.
///
/// Coordinates are in points; the context's transform maps them to the surface's pixels.
public final class DrawingContext {
    /// The cairo handle; valid for the context's lifetime.
    let handle: OpaquePointer
    /// The surface drawn on, kept alive as long as the context.
    public let surface: Surface

    /// Creates a context drawing on `surface`.
    public init(surface: Surface) throws {
        self.surface = surface
        handle = cairo_create(surface.handle)
        try checkStatus("create a drawing context")
    }

    deinit { cairo_destroy(handle) }

    /// Throws if the context is in an error state.
    public func checkStatus(_ operation: String) throws {
        let status = cairo_status(handle)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError.cairo(operation: operation, status: String(cString: cairo_status_to_string(status)))
        }
    }

    /// Scales every later coordinate, e.g. by 2 for an @2x image.
    public func scale(by factor: Double) { cairo_scale(handle, factor, factor) }
    /// Moves the origin.
    public func translate(x: Double, y: Double) { cairo_translate(handle, x, y) }
    /// Turns every later coordinate by an angle in radians, clockwise on screen.
    public func rotate(by radians: Double) { cairo_rotate(handle, radians) }
    /// Saves the transform, source and clip.
    public func save() { cairo_save(handle) }
    /// Restores what the last ``save()`` saved.
    public func restore() { cairo_restore(handle) }

    /// Sets the colour later fills and strokes use.
    public func setColor(_ color: RGBAColor) {
        cairo_set_source_rgba(handle, color.red, color.green, color.blue, color.alpha)
    }

    /// Starts a new path.
    public func newPath() { cairo_new_path(handle) }
    /// Begins a sub-path at a point.
    public func move(toX x: Double, y: Double) { cairo_move_to(handle, x, y) }
    /// Adds a line to a point.
    public func line(toX x: Double, y: Double) { cairo_line_to(handle, x, y) }
    /// Adds an arc around a centre from `start` to `end` radians, increasing angles (clockwise on screen).
    public func arc(centerX: Double, centerY: Double, radius: Double, start: Double, end: Double) {
        cairo_arc(handle, centerX, centerY, radius, start, end)
    }
    /// Closes the current sub-path.
    public func closePath() { cairo_close_path(handle) }
    /// Adds a rectangle.
    public func rectangle(x: Double, y: Double, width: Double, height: Double) {
        cairo_rectangle(handle, x, y, width, height)
    }
    /// Adds a full circle as its own sub-path.
    public func circle(centerX: Double, centerY: Double, radius: Double) {
        cairo_new_sub_path(handle)
        cairo_arc(handle, centerX, centerY, radius, 0, 2 * Double.pi)
        cairo_close_path(handle)
    }

    /// Fills the current path with a colour and clears it.
    public func fill(_ color: RGBAColor) {
        setColor(color)
        cairo_fill(handle)
    }

    /// Fills the current path with a colour, keeping it for a stroke.
    public func fillPreserving(_ color: RGBAColor) {
        setColor(color)
        cairo_fill_preserve(handle)
    }

    /// Strokes the current path and clears it.
    public func stroke(_ color: RGBAColor, width: Double) {
        setColor(color)
        cairo_set_line_width(handle, width)
        cairo_stroke(handle)
    }

    /// Strokes the current path with round caps and joins, as map lines are drawn, keeping the path if asked.
    public func strokeRound(_ color: RGBAColor, width: Double, preserving: Bool = false) {
        setColor(color)
        cairo_set_line_width(handle, width)
        cairo_set_line_cap(handle, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(handle, CAIRO_LINE_JOIN_ROUND)
        if preserving { cairo_stroke_preserve(handle) } else { cairo_stroke(handle) }
    }

    /// Strokes the current path dashed (`dash`: on and off lengths in points) with round joins, and clears it.
    public func strokeDashed(_ color: RGBAColor, width: Double, dash: [Double]) {
        setColor(color)
        cairo_set_line_width(handle, width)
        cairo_set_line_cap(handle, CAIRO_LINE_CAP_BUTT)
        cairo_set_line_join(handle, CAIRO_LINE_JOIN_ROUND)
        cairo_set_dash(handle, dash, Int32(dash.count), 0)
        cairo_stroke(handle)
        cairo_set_dash(handle, nil, 0, 0)
    }

    /// Fills the current path by the even-odd rule (holes in polygons stay open), keeping the path if asked.
    public func fillEvenOdd(_ color: RGBAColor, preserving: Bool = false) {
        setColor(color)
        cairo_set_fill_rule(handle, CAIRO_FILL_RULE_EVEN_ODD)
        if preserving { cairo_fill_preserve(handle) } else { cairo_fill(handle) }
        cairo_set_fill_rule(handle, CAIRO_FILL_RULE_WINDING)
    }

    /// Fills the whole surface (within the clip) with a colour.
    public func paint(_ color: RGBAColor) {
        setColor(color)
        cairo_paint(handle)
    }

    /// Draws an image stretched over a rectangle in user coordinates, edge pixels extended and the rectangle's
    /// edges not anti-aliased, so that images laid edge to edge (map tiles) leave no seams.
    public func drawImage(_ image: Surface, x: Double, y: Double, width: Double, height: Double) {
        let pixelWidth = Double(image.pixelWidth), pixelHeight = Double(image.pixelHeight)
        guard pixelWidth > 0, pixelHeight > 0 else { return }
        cairo_save(handle)
        cairo_translate(handle, x, y)
        cairo_scale(handle, width / pixelWidth, height / pixelHeight)
        cairo_set_source_surface(handle, image.handle, 0, 0)
        if let pattern = cairo_get_source(handle) {
            cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
            cairo_pattern_set_filter(pattern, CAIRO_FILTER_GOOD)
        }
        cairo_set_antialias(handle, CAIRO_ANTIALIAS_NONE)
        cairo_rectangle(handle, 0, 0, pixelWidth, pixelHeight)
        cairo_fill(handle)
        cairo_restore(handle)
    }

    /// Limits later drawing to the current path (cleared).
    public func clip() { cairo_clip(handle) }

    /// Paints `color` through the alpha of an image placed at (x, y) scaled by `scale`: how template images are tinted.
    public func mask(_ image: Surface, color: RGBAColor, x: Double, y: Double, scale: Double) {
        setColor(color)
        cairo_save(handle)
        cairo_translate(handle, x, y)
        cairo_scale(handle, scale, scale)
        // Bilinear filtering keeps scaled template glyphs smooth and is the same on every machine.
        let pattern = cairo_pattern_create_for_surface(image.handle)
        cairo_pattern_set_filter(pattern, CAIRO_FILTER_GOOD)
        cairo_mask(handle, pattern)
        cairo_pattern_destroy(pattern)
        cairo_restore(handle)
    }

    /// Clears the whole surface to transparent.
    public func clear() {
        cairo_save(handle)
        cairo_set_operator(handle, CAIRO_OPERATOR_CLEAR)
        cairo_paint(handle)
        cairo_restore(handle)
    }

    /// Draws a text layout with its top-left corner at (x, y) in the current colour.
    public func show(_ layout: TextLayout, x: Double, y: Double, color: RGBAColor) {
        setColor(color)
        cairo_move_to(handle, x, y)
        pango_cairo_show_layout(handle, layout.handle)
    }

    /// Strokes the outline of a text layout's glyphs `width` points wide with its top-left corner at (x, y): the
    /// halo drawn under ``show(_:x:y:color:)`` that keeps a name readable over lines and borders.
    public func showHalo(_ layout: TextLayout, x: Double, y: Double, color: RGBAColor, width: Double) {
        cairo_new_path(handle)
        cairo_move_to(handle, x, y)
        pango_cairo_layout_path(handle, layout.handle)
        strokeRound(color, width: width)
    }
}

extension DrawingContext {
    /// The device scale and origin when the context draws into an image with only a uniform scale and a
    /// whole-pixel translation, so that pre-rendered pixels can be copied in unchanged; nil otherwise.
    public var pixelAlignedTransform: (scale: Double, originX: Double, originY: Double)? {
        guard cairo_surface_get_type(surface.handle) == CAIRO_SURFACE_TYPE_IMAGE else { return nil }
        var matrix = cairo_matrix_t()
        cairo_get_matrix(handle, &matrix)
        guard matrix.xy == 0, matrix.yx == 0, matrix.xx == matrix.yy, matrix.xx > 0,
            matrix.x0 == matrix.x0.rounded(), matrix.y0 == matrix.y0.rounded()
        else { return nil }
        return (matrix.xx, matrix.x0, matrix.y0)
    }

    /// Paints an image with its top-left corner at device pixel (x, y), ignoring the user transform.
    public func paintPixels(_ image: Surface, deviceX x: Double, deviceY y: Double) {
        withDeviceSource(image, x: x, y: y) { cairo_paint(handle) }
    }

    /// Fills the current path with an image placed at device pixel (x, y) as the source, and clears the path.
    public func fillPath(withPixels image: Surface, deviceX x: Double, deviceY y: Double) {
        withDeviceSource(image, x: x, y: y) { cairo_fill(handle) }
    }

    /// Runs a drawing operation with an image as the source, placed in device pixels.
    private func withDeviceSource(_ image: Surface, x: Double, y: Double, _ operation: () -> Void) {
        cairo_save(handle)
        cairo_identity_matrix(handle)
        cairo_set_source_surface(handle, image.handle, x, y)
        operation()
        cairo_restore(handle)
    }
}
