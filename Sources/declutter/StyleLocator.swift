import DeclutterCore
import DeclutterRender
import Foundation

/// Finds a style by path or by the name of a bundled style (`tandm`, `default`, `airports`).
///
/// Bundled styles live in the package's `Styles/` folder, found from `DECLUTTER_STYLES` or by
/// walking up from the executable (`swift run` runs it from `.build/…` inside the package).
enum StyleLocator {
    /// Loads `nameOrPath`: an existing file, else `Styles/<name>.json` (a `.json` ending is allowed).
    static func load(_ nameOrPath: String) throws -> MarkerStyle {
        if nameOrPath.contains("/") || FileSystem.item(atPath: nameOrPath) == .file {
            return try MarkerStyle.load(contentsOf: URL(fileURLWithPath: nameOrPath))
        }
        guard let folder = stylesFolder() else {
            throw StyleError(file: nameOrPath, path: "",
                             message: "no such style file, and no bundled Styles/ folder was found (set DECLUTTER_STYLES to it)")
        }
        guard FileSystem.item(atPath: folder.path) == .folder else {
            throw StyleError(file: nameOrPath, path: "",
                             message: "no such style file, and DECLUTTER_STYLES names \(folder.path), which is not a folder")
        }
        // `tandm.json` given outside Styles/ still means the bundled style.
        let name = nameOrPath.hasSuffix(".json") ? String(nameOrPath.dropLast(5)) : nameOrPath
        let file = folder.appendingPathComponent("\(name).json")
        guard FileManager.default.fileExists(atPath: file.path) else {
            // Neither here nor bundled: a file name is reported as the missing file it names.
            if name != nameOrPath { return try MarkerStyle.load(contentsOf: URL(fileURLWithPath: nameOrPath)) }
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
                .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
            throw StyleError(file: nameOrPath, path: "",
                             message: "no such style file or bundled style; bundled styles: \(names.joined(separator: ", "))")
        }
        return try MarkerStyle.load(contentsOf: file)
    }

    /// Loads a style as ``load(_:)`` does and warns on standard error when its font is not installed, as fontconfig
    /// then draws in another family without a word.
    static func loadCheckingFont(_ nameOrPath: String) throws -> MarkerStyle {
        let style = try load(nameOrPath)
        if let fallback = try? TextEngine().fallbackFamily(for: style.font) {
            FileHandle.standardError.write(Data("warning: \(nameOrPath): font: no installed font is \"\(style.font)\"; text is drawn in \(fallback)\n".utf8))
        }
        return style
    }

    /// The bundled `Styles/` folder, if one can be found.
    static func stylesFolder() -> URL? {
        if let configured = ProcessInfo.processInfo.environment["DECLUTTER_STYLES"] {
            return URL(fileURLWithPath: configured)
        }
        let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        var folder = executable.resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = folder.appendingPathComponent("Styles")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("tandm.json").path) { return candidate }
            folder.deleteLastPathComponent()
        }
        return nil
    }
}
