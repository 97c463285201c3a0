import DeclutterStyle
import DeclutterSupport
import Foundation

/// Finds a style by path or by the name of a bundled style (`tandm`, `default`, `airports`).
///
/// Bundled styles are compiled into the binary (``BundledFiles``). `DECLUTTER_STYLES` names a folder of the
/// user's own styles, looked in first, so that `--style mine` finds `mine.json` there.
public enum StyleLocator {
    /// Loads `nameOrPath`: an existing file, else `<name>.json` in `DECLUTTER_STYLES`, else the bundled style
    /// (a `.json` ending is allowed).
    public static func load(_ nameOrPath: String) throws -> MarkerStyle {
        if nameOrPath.contains("/") || FileSystem.item(atPath: nameOrPath) == .file {
            return try MarkerStyle.load(contentsOf: URL(fileURLWithPath: nameOrPath))
        }
        // `tandm.json` given outside the styles folder still means the bundled style.
        let name = nameOrPath.hasSuffix(".json") ? String(nameOrPath.dropLast(5)) : nameOrPath
        var userNames: [String] = []
        if let folder = userStylesFolder() {
            guard FileSystem.item(atPath: folder.path) == .folder else {
                throw StyleError(
                    file: nameOrPath, path: "",
                    message: "no such style file, and DECLUTTER_STYLES names \(folder.path), which is not a folder")
            }
            let file = folder.appendingPathComponent("\(name).json")
            if FileSystem.item(atPath: file.path) == .file { return try MarkerStyle.load(contentsOf: file) }
            userNames = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
                .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }
        }
        if let bundled = try BundledFiles.style(named: name) { return bundled }
        // Neither the user's nor bundled: a file name is reported as the missing file it names.
        if name != nameOrPath { return try MarkerStyle.load(contentsOf: URL(fileURLWithPath: nameOrPath)) }
        let names = Set(userNames + BundledFiles.styleNames).sorted()
        throw StyleError(
            file: nameOrPath, path: "",
            message: "no such style file or bundled style; bundled styles: \(names.joined(separator: ", "))")
    }

    /// The folder of the user's own styles, from `DECLUTTER_STYLES`.
    public static func userStylesFolder() -> URL? {
        ProcessInfo.processInfo.environment["DECLUTTER_STYLES"].map { URL(fileURLWithPath: $0) }
    }
}
