import DeclutterRender
import DeclutterStyle
import DeclutterSupport
import Foundation
import Synchronization

/// The styles a server draws in, by name: files `NAME.json` in the configured folder first, then the styles bundled in
/// the binary (`tandm`, `default`, `airports`). Each is loaded once; an unknown name is a 404.
public final class StyleCatalog: Sendable {
    /// The folder of the server's own styles (`--styles`); nil for the bundled ones only.
    public let directory: String?
    private let loaded = Mutex<[String: MarkerStyle]>([:])

    /// A catalog of the styles in `directory` and the bundled ones.
    public init(directory: String? = nil) {
        self.directory = directory
    }

    /// The style named `name`.
    ///
    /// - Throws: ``ServerError`` 404 naming the field `style` when there is no such style, 500 when its file is broken.
    public func style(named name: String) throws -> MarkerStyle {
        if let style = loaded.withLock({ $0[name] }) { return style }
        // A name is letters, digits, '-' and '_' only, so that it cannot leave the folder.
        guard Dataset.isName(name) else { throw unknown(name) }
        let style: MarkerStyle
        if let directory, FileManager.default.fileExists(atPath: "\(directory)/\(name).json") {
            style = try MarkerStyle.load(contentsOf: URL(fileURLWithPath: "\(directory)/\(name).json"))
        } else if let bundled = try BundledFiles.style(named: name) {
            style = bundled
        } else {
            throw unknown(name)
        }
        loaded.withLock { $0[name] = style }
        return style
    }

    /// Every style's name: the folder's and the bundled ones.
    public var names: [String] {
        let own = directory.flatMap { try? FileManager.default.contentsOfDirectory(atPath: $0) } ?? []
        return Set(own.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) } + BundledFiles.styleNames).sorted()
    }

    private func unknown(_ name: String) -> ServerError {
        ServerError(.notFound, field: "style", "no style \"\(name.prefix(64))\"; styles: \(names.joined(separator: ", "))")
    }
}
