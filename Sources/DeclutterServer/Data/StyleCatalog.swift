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
    /// - Throws: ``ServerError`` 404 naming the field `style` when there is no such style; ``StyleCatalog/BrokenStyle``
    /// (a 500 that
    ///   names no path) when its file is broken.
    public func style(named name: String) throws -> MarkerStyle {
        if let style = loaded.withLock({ $0[name] }) { return style }
        // A name is letters, digits, '-' and '_' only, so that it cannot leave the folder.
        guard Dataset.isName(name) else { throw unknown(name) }
        let style: MarkerStyle
        if let directory, FileManager.default.fileExists(atPath: "\(directory)/\(name).json") {
            do {
                style = try MarkerStyle.load(contentsOf: URL(fileURLWithPath: "\(directory)/\(name).json"))
            } catch let error as any DeclutterError where error.kind != .internalFailure {
                // A file added or broken after start: the request is told the style is broken, the log where, and the
                // answer names no path on the server.
                throw BrokenStyle(name: name, error: error)
            }
        } else if let bundled = try BundledFiles.style(named: name) {
            style = bundled
        } else {
            throw unknown(name)
        }
        loaded.withLock { $0[name] = style }
        return style
    }

    /// Loads every style of the folder now, so that a broken one stops the server at start rather than failing the
    /// requests that name it.
    ///
    /// - Returns: The folder's styles' names, sorted.
    /// - Throws: ``StyleCatalog/BrokenStyle`` naming the file and what is wrong in it; ``ServerError`` naming the
    /// folder when it
    ///   cannot be listed.
    @discardableResult
    public func loadAll() throws -> [String] {
        guard let directory else { return [] }
        let files: [String]
        do {
            files = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw ServerError(
                .badRequest, field: "styles", "\(directory): cannot list the folder (\(FileSystem.reason(error)))")
        }
        let names = files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.filter(Dataset.isName)
            .sorted()
        for name in names { _ = try style(named: name) }
        return names
    }

    /// Every style's name: the folder's and the bundled ones.
    public var names: [String] {
        let own = directory.flatMap { try? FileManager.default.contentsOfDirectory(atPath: $0) } ?? []
        return Set(own.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) } + BundledFiles.styleNames)
            .sorted()
    }

    private func unknown(_ name: String) -> ServerError {
        ServerError(
            .notFound, field: "style", "no style \"\(name.prefix(64))\"; styles: \(names.joined(separator: ", "))")
    }

    /// A style file in the server's folder that cannot be loaded. At start (``StyleCatalog/loadAll()``) it stops the
    /// server with the file's own message; later (a file added or broken while the server runs) a request naming it is
    /// answered 500 without the file's path, which stays in the server's log.
    public struct BrokenStyle: Error, Sendable, CustomStringConvertible {
        /// The style's name.
        public var name: String
        /// Why it cannot be loaded, naming the file and the field: the loading error's message.
        public var message: String

        /// The style named `name` failed with `error`.
        public init(name: String, error: any DeclutterError) {
            self.name = name
            message = error.description
        }

        /// The file's own message.
        public var description: String { message }
    }
}

extension StyleCatalog.BrokenStyle: DeclutterError {
    /// The file is the server's, not the request's: a server failure.
    public var kind: FailureKind { .internalFailure }
}
