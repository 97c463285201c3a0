import DeclutterGeometry
import Foundation

/// Where raster tiles come from: a folder, an MBTiles file or a server.
public protocol TileSource: Sendable {
    /// Names the source in messages.
    var name: String { get }
    /// The width and height of its tile images in pixels (256, or 512 for @2x or 512-px tiles).
    var tilePixelSize: Int { get }
    /// The zooms it has tiles for.
    var zoomRange: ClosedRange<Int> { get }
    /// The attribution to print on maps drawn from it.
    var attribution: String? { get }
    /// Fetches tiles; a tile that is missing or failed maps to a failure with the reason.
    ///
    /// - Throws: ``TileError/unreachable(source:reason:)`` when a server cannot be reached at all.
    func fetch(_ keys: [TileKey]) throws -> [TileKey: Result<Data, TileFailure>]
}

/// Fills `{z}`, `{x}`, `{y}`, `{-y}` (TMS row), `{s}` (subdomain a, b or c) and `{r}` (`@2x` or nothing) in a template.
func fillTemplate(_ template: String, _ key: TileKey, retina: Bool) -> String {
    // One pass over the template: Foundation's replacingOccurrences, six times per tile, cost more than reading the
    // tile.
    var result = ""
    result.reserveCapacity(template.utf8.count + 16)
    var rest = Substring(template)
    while let open = rest.firstIndex(of: "{") {
        result += rest[..<open]
        rest = rest[open...]
        guard let close = rest.firstIndex(of: "}") else { break }
        let name = rest[rest.index(after: rest.startIndex)..<close]
        switch name {
        case "z": result += String(key.z)
        case "x": result += String(key.x)
        case "y": result += String(key.y)
        case "-y": result += String((1 << key.z) - 1 - key.y)
        case "s": result += ["a", "b", "c"][(key.x + key.y) % 3]
        case "r": result += retina ? "@2x" : ""
        default: result += rest[...close]
        }
        rest = rest[rest.index(after: close)...]
    }
    result += rest
    return result
}
