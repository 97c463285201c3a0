import DeclutterRender
import DeclutterStyle
import DeclutterSupport
import Foundation

extension StyleLocator {
    /// Loads a style as ``load(_:)`` does and warns on standard error when its font is not installed, as fontconfig
    /// then draws in another family without a word.
    ///
    /// - Parameter outputs: the files the command will write (option and path), refused when one is a glyph image the
    ///   style reads: the style file itself is checked with the command's other inputs before anything is read, its
    ///   glyph images only once it names them.
    package static func loadCheckingFont(
        _ nameOrPath: String, outputs: [(option: String, path: String)] = []
    ) throws -> MarkerStyle {
        let style = try load(nameOrPath)
        try FileSystem.refuseOverwriting(
            outputs, inputs: style.glyphImageFiles.map { ("--style's glyph image", $0) })
        if let fallback = try? TextEngine().fallbackFamily(for: style.font) {
            StandardError.write(
                "warning: \(nameOrPath): font: no installed font is \"\(style.font)\"; text is drawn in \(fallback)\n")
        }
        return style
    }
}
