import Foundation

/// Where the viewer pages (`/`, `/maps/{name}`) load MapLibre GL JS from: a URL under which `maplibre-gl.js` and
/// `maplibre-gl.css` are (the public CDN build by default), or the two files read from a folder at start and served
/// by the server itself at `/maplibre/…`, so that the viewer works with no network.
public enum MapLibreScript: Sendable, Hashable {
    /// A URL ending in `/` under which the two files are.
    case url(String)
    /// The two files, served at `/maplibre/maplibre-gl.js` and `/maplibre/maplibre-gl.css`.
    case files(script: Data, stylesheet: Data)

    /// The MapLibre GL JS release the viewer was checked with, from unpkg's copy of npm.
    public static let defaultCDN = MapLibreScript.url("https://unpkg.com/maplibre-gl@5.3.0/dist/")

    /// The script and stylesheet files' names.
    static let scriptName = "maplibre-gl.js", stylesheetName = "maplibre-gl.css"

    /// `value` as `--maplibre-url` takes it: an `http(s)` URL (a final `/` is added), or a folder holding
    /// `maplibre-gl.js` and `maplibre-gl.css` (as npm's `dist/` or the `maplibre` wheel's `srcjs/` do).
    ///
    /// - Throws: A message naming what is missing.
    public static func load(_ value: String) throws(MapLibreScriptError) -> MapLibreScript {
        if value.hasPrefix("http://") || value.hasPrefix("https://") {
            guard URL(string: value)?.host != nil else {
                throw MapLibreScriptError("\(value.prefix(200)) is not a URL with a host")
            }
            return .url(value.hasSuffix("/") ? value : value + "/")
        }
        let folder = URL(fileURLWithPath: value)
        guard let script = FileManager.default.contents(atPath: folder.appendingPathComponent(scriptName).path),
            let stylesheet = FileManager.default.contents(atPath: folder.appendingPathComponent(stylesheetName).path)
        else {
            throw MapLibreScriptError(
                "\(value): expected an http(s) URL or a folder holding \(scriptName) and \(stylesheetName)")
        }
        return .files(script: script, stylesheet: stylesheet)
    }

    /// The script's and the stylesheet's URLs for a page of the server at `baseURL`.
    func urls(baseURL: String) -> (script: String, stylesheet: String) {
        switch self {
        case .url(let prefix): (prefix + Self.scriptName, prefix + Self.stylesheetName)
        case .files: (baseURL + "maplibre/" + Self.scriptName, baseURL + "maplibre/" + Self.stylesheetName)
        }
    }
}
