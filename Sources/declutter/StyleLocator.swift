import DeclutterCore
import Foundation

/// Finds a style by path or by the name of a bundled style (`tandm`, `default`).
///
/// Bundled styles live in the package's `Styles/` folder, found from `DECLUTTER_STYLES` or by
/// walking up from the executable (`swift run` runs it from `.build/…` inside the package).
enum StyleLocator {
    /// Loads `nameOrPath`: an existing file, else `Styles/<name>.json`.
    static func load(_ nameOrPath: String) throws -> MarkerStyle {
        if nameOrPath.contains("/") || nameOrPath.hasSuffix(".json") || FileManager.default.fileExists(atPath: nameOrPath) {
            return try MarkerStyle.load(contentsOf: URL(fileURLWithPath: nameOrPath))
        }
        guard let folder = stylesFolder() else {
            throw StyleError(file: nameOrPath, path: "",
                             message: "no such style file, and no bundled Styles/ folder was found (set DECLUTTER_STYLES to it)")
        }
        let file = folder.appendingPathComponent("\(nameOrPath).json")
        guard FileManager.default.fileExists(atPath: file.path) else {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
                .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
            throw StyleError(file: nameOrPath, path: "",
                             message: "no such style file or bundled style; bundled styles: \(names.joined(separator: ", "))")
        }
        return try MarkerStyle.load(contentsOf: file)
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
