import DeclutterGeometry

extension StaticMapRequest {
    /// The Mapbox-shape path for the request, percent-encoded: parsing it with ``queryItems`` gives the request back.
    ///
    /// A path's fill colour needs a stroke colour before it in the URL, so a path with a fill and no stroke colour
    /// comes back with simplestyle's default stroke, `#555555`.
    public var urlPath: String {
        var segments = ["", "styles", "v1", username, style, "static"].map(PercentEncoding.encode)
        if !overlays.isEmpty { segments.append(PercentEncoding.encode(overlays.map(\.text).joined(separator: ","))) }
        segments.append(PercentEncoding.encode(camera.segment))
        segments.append("\(width)x\(height)" + (scale == 1 ? "" : "@\(scale)x"))
        return segments.joined(separator: "/")
    }

    /// The query parameters that differ from their defaults, decoded, in a fixed order.
    public var queryItems: [(String, String)] {
        var items: [(String, String)] = []
        if let padding {
            items.append(
                (
                    "padding",
                    [padding.top, padding.right, padding.bottom, padding.left].map(StaticMapRequest.plainText).joined(
                        separator: ",")
                ))
        }
        if format != .png { items.append(("format", format.rawValue)) }
        if !attribution { items.append(("attribution", "false")) }
        if !logo { items.append(("logo", "false")) }
        if legend { items.append(("legend", "true")) }
        if compass != .never { items.append(("compass", compass.rawValue)) }
        if scaleBar { items.append(("scale_bar", "true")) }
        return items
    }
}
