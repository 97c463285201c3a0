import DeclutterRender
import DeclutterStyle
import Foundation

extension StyleLocator {
    /// Loads a style as ``load(_:)`` does and warns on standard error when its font is not installed, as fontconfig
    /// then draws in another family without a word.
    package static func loadCheckingFont(_ nameOrPath: String) throws -> MarkerStyle {
        let style = try load(nameOrPath)
        if let fallback = try? TextEngine().fallbackFamily(for: style.font) {
            StandardError.write(
                "warning: \(nameOrPath): font: no installed font is \"\(style.font)\"; text is drawn in \(fallback)\n")
        }
        return style
    }
}
