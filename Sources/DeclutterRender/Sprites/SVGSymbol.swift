import Foundation

/// Turns a standalone SVG document from cairo into a `<symbol>` that can sit beside others in one sprite file.
enum SVGSymbol {
    /// The document's content as `<symbol id=… viewBox=…>`, with every internal identifier prefixed so that
    /// cairo's per-document names (`glyph0-1`, `surface1`, `image1`, …) do not collide between symbols.
    static func symbol(from svg: String, id: String, viewBox: String, prefix: String) -> String {
        guard let open = svg.range(of: "<svg"), let openEnd = svg[open.upperBound...].firstIndex(of: ">"),
            let close = svg.range(of: "</svg>", options: .backwards)
        else {
            return #"<symbol id="\#(id)" viewBox="\#(viewBox)"/>"#
        }
        var body = String(svg[svg.index(after: openEnd)..<close.lowerBound])
        if let expression = try? NSRegularExpression(pattern: #"id="([^"]+)""#) {
            let identifiers = Set(
                expression.matches(in: body, range: NSRange(body.startIndex..., in: body)).compactMap {
                    Range($0.range(at: 1), in: body).map { String(body[$0]) }
                })
            // Longest first, so `glyph0-10` is not rewritten through `glyph0-1`.
            for identifier in identifiers.sorted(by: { $0.count > $1.count }) {
                body = body.replacingOccurrences(of: #"id="\#(identifier)""#, with: #"id="\#(prefix)\#(identifier)""#)
                body = body.replacingOccurrences(of: "#\(identifier)\"", with: "#\(prefix)\(identifier)\"")
                body = body.replacingOccurrences(of: "#\(identifier))", with: "#\(prefix)\(identifier))")
            }
        }
        return #"<symbol id="\#(id)" viewBox="\#(viewBox)">"# + body.trimmingCharacters(in: .whitespacesAndNewlines)
            + "</symbol>"
    }
}
