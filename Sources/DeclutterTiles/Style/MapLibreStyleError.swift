import DeclutterSupport

/// Why a ``MapLibreStyle`` cannot be written.
public enum MapLibreStyleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The base URL is not an absolute `http`, `https` or `file` URL.
    case baseURL(String)
    /// A path (of the sprite, the tiles, a TileJSON or PMTiles file) is empty or starts with `/`.
    case path(String, field: String)
    /// The template's zooms are not `0 ≤ minimum ≤ maximum ≤ 30`.
    case zooms(minimum: Int, maximum: Int)
    /// The template's bounds are not finite, or west lies east of east or south north of north.
    case bounds(TileBounds)

    /// The problem and what was expected, for a command's error message.
    public var description: String {
        switch self {
        case let .baseURL(text):
            "base URL: expected an absolute http, https or file URL (MapLibre needs absolute sprite and tile URLs), got \"\(text)\""
        case let .path(path, field):
            "\(field): expected a path relative to the base URL or an absolute URL, got \"\(path)\""
        case let .zooms(minimum, maximum):
            "tiles: expected zooms 0 ≤ minimum ≤ maximum ≤ 30, got \(minimum)…\(maximum)"
        case let .bounds(bounds):
            "tiles: expected finite bounds with west ≤ east and south ≤ north, got [\(bounds.west), \(bounds.south), \(bounds.east), \(bounds.north)]"
        }
    }
}

extension MapLibreStyleError: DeclutterError {
    /// A style that cannot be written as asked is bad input.
    public var kind: FailureKind { .badInput }
}
