import CDeclutterResources
import DeclutterStyle
import DeclutterSupport
import Foundation

/// The files compiled into the binary: the bundled styles and their glyph images, the world basemap, the demo's data
/// and the example inputs the help's examples read. A `declutter` copied anywhere carries them; nothing is read from
/// beside the executable.
public enum BundledFiles {
    /// Every bundled file's package-relative path, such as `Styles/tandm.json`.
    public static let paths: [String] = (0..<declutter_resource_count()).compactMap { index in
        declutter_resource_name(index).map { String(cString: $0) }
    }

    /// The bytes of the bundled file at `path` (package-relative), or nil when none is bundled.
    public static func data(_ path: String) -> Data? {
        guard let index = paths.firstIndex(of: path) else { return nil }
        var count = 0
        guard let bytes = declutter_resource_bytes(index, &count) else { return nil }
        // The bytes live in the binary's read-only data for the life of the process: no copy, nothing to free.
        return Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: bytes), count: count, deallocator: .none)
    }

    /// The names of the bundled styles (`airports`, `default`, `tandm`), sorted.
    public static var styleNames: [String] {
        paths.compactMap { path in
            guard path.hasPrefix("Styles/"), path.hasSuffix(".json"), !path.dropFirst(7).contains("/") else {
                return nil
            }
            return String(path.dropFirst(7).dropLast(5))
        }.sorted()
    }

    /// The example inputs (`Examples/places.csv`, …), sorted: what `declutter demo --write-examples` writes out.
    public static var examplePaths: [String] { paths.filter { $0.hasPrefix("Examples/") }.sorted() }

    /// The bundled style `name`, its glyph images read from the bundle too; nil when there is no such style.
    public static func style(named name: String) throws -> MarkerStyle? {
        guard let json = data("Styles/\(name).json") else { return nil }
        return try MarkerStyle.decode(json, file: "\(name).json", glyphFile: { data("Styles/\($0)") })
    }
}
