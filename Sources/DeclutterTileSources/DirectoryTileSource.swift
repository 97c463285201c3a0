import DeclutterGeometry
import DeclutterSupport
import Foundation

/// Tiles read from files named by a template such as `tiles/{z}/{x}/{y}.png`.
public struct DirectoryTileSource: TileSource {
    /// The path template.
    public let template: String
    public let tilePixelSize: Int
    public let zoomRange: ClosedRange<Int>
    public let attribution: String?
    /// Whether `{r}` reads `@2x`.
    public let retina: Bool
    public var name: String { template }

    /// A source over a folder (`DIR/{z}/{x}/{y}.png`) or an explicit template.
    ///
    /// - Throws: ``TileError/invalidSource(source:reason:)`` when a plain folder does not exist.
    public init(
        path: String, tilePixelSize: Int = 256, zoomRange: ClosedRange<Int> = 0...22, attribution: String? = nil,
        retina: Bool = false
    ) throws {
        if path.contains("{z}") {
            template = path
        } else {
            guard FileSystem.item(atPath: path) == .folder else {
                throw TileError.invalidSource(
                    source: path,
                    reason: "expected a folder of {z}/{x}/{y}.png tiles or a template with {z}, {x} and {y}")
            }
            template = (path.hasSuffix("/") ? path : path + "/") + "{z}/{x}/{y}.png"
        }
        self.tilePixelSize = tilePixelSize * (retina && template.contains("{r}") ? 2 : 1)
        self.zoomRange = zoomRange
        self.attribution = attribution
        self.retina = retina
    }

    /// Files larger than this are mapped rather than read; smaller ones cost less read.
    static let mappedSize = 1 << 20

    public func fetch(_ keys: [TileKey]) throws -> [TileKey: Result<Data, TileFailure>] {
        // Reads on every core: opening and reading a dozen small files is mostly system-call time.
        let outcomes = concurrentMap(keys.count) { index -> Result<Data, TileFailure> in
            let path = fillTemplate(template, keys[index], retina: retina)
            // Large tiles are mapped, not read: a map holds every tile's bytes until it is drawn, and mapped pages are
            // the file's, which the system can drop, not the process's memory (225 tiles of 1.75 MB: 394 MB).
            var info = stat()
            if stat(path, &info) == 0, Int(info.st_size) > Self.mappedSize,
                let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
            {
                return .success(data)
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                return .failure(TileFailure("no file \(path)"))
            }
            return .success(data)
        }
        return Dictionary(zip(keys, outcomes), uniquingKeysWith: { first, _ in first })
    }
}
