import DeclutterPlacement

/// The file formats a canvas can produce.
public enum OutputFormat: String, Sendable, Hashable, CaseIterable {
    /// A raster image at the canvas's scale.
    case png
    /// A vector image in px units with a `viewBox` in points.
    case svg
    /// A vector document, one page the size of the canvas in points.
    case pdf

    /// The format a file name asks for by its extension (any case).
    ///
    /// - Throws: ``RenderError/unknownFormat(path:)`` for any other extension.
    public init(path: String) throws {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."),
            let format = OutputFormat(rawValue: name[name.index(after: dot)...].lowercased())
        else {
            throw RenderError.unknownFormat(path: path)
        }
        self = format
    }
}
