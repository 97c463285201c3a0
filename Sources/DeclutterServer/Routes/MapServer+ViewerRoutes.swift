import Foundation
import Hummingbird

extension MapServer {
    /// `/`: what the server serves, with links; `/maps/{name}`: one dataset or tileset in MapLibre GL JS;
    /// `/maplibre/maplibre-gl.{js,css}`: MapLibre itself when `--maplibre-url` names a folder.
    func addViewerRoutes(to router: Router<BasicRequestContext>) {
        router.get("/") { request, _ in
            let datasetEntries = datasets.values.sorted { $0.name < $1.name }.map { dataset in
                ViewerPage.Entry(
                    name: dataset.name, kind: "dataset", summary: "\(dataset.points.count) points",
                    links: [
                        ("style.json", "styles/\(dataset.styleName)/style.json?dataset=\(dataset.name)"),
                        ("TileJSON", "tiles/\(dataset.name).json"),
                        ("static map", "datasets/\(dataset.name)/static/auto/800x600"),
                    ])
            }
            let tilesetEntries = tilesets.values.sorted { $0.name < $1.name }.map { tileset in
                let archive = tileset.archive
                let megabytes = String(format: "%.1f", Double(archive.file.size) / 1_000_000)
                return ViewerPage.Entry(
                    name: tileset.name, kind: "tileset",
                    summary:
                        "\(archive.format.rawValue), \(megabytes) MB, zooms \(archive.zooms.lowerBound)…\(archive.zooms.upperBound)",
                    links: [
                        ("style.json", "tilesets/\(tileset.name)/style.json"),
                        ("TileJSON", "tiles/\(tileset.name).json"), (archive.format.rawValue, tileset.filePath),
                    ])
            }
            return Self.html(ViewerPage.index(datasetEntries + tilesetEntries))
        }
        router.get("/maps/:name") { request, context in
            let name = context.parameters.get("name") ?? ""
            let base = baseURL(request)
            let (script, stylesheet) = maplibre.urls(baseURL: base)
            if let dataset = datasets[name] {
                return Self.html(
                    ViewerPage.map(
                        name: name, style: base + "styles/\(dataset.styleName)/style.json?dataset=\(name)",
                        leaves: base + "tiles/\(name)/clusters/{id}/leaves", script: script, stylesheet: stylesheet))
            }
            guard tilesets[name] != nil else {
                let names = (datasets.keys.sorted() + tilesets.keys.sorted()).joined(separator: ", ")
                throw ServerError(
                    .notFound, field: "name",
                    "no dataset or tileset \"\((name.removingPercentEncoding ?? name).prefix(64))\"; there are: "
                        + (names.isEmpty ? "none" : names))
            }
            return Self.html(
                ViewerPage.map(
                    name: name, style: base + "tilesets/\(name)/style.json", leaves: nil, script: script,
                    stylesheet: stylesheet))
        }
        router.get("/maplibre/:file") { request, context in
            let file = context.parameters.get("file") ?? ""
            guard case .files(let script, let stylesheet) = maplibre,
                [MapLibreScript.scriptName, MapLibreScript.stylesheetName].contains(file)
            else {
                throw ServerError(
                    .notFound, field: "path",
                    "no \"\(file.prefix(40))\": MapLibre is served here only when --maplibre-url names a folder")
            }
            let isScript = file == MapLibreScript.scriptName
            return EntityTag.response(
                isScript ? script : stylesheet, to: request,
                contentType: isScript ? "text/javascript" : "text/css", cacheControl: Self.tileCacheControl)
        }
    }

    /// A page, never cached: it names what this run of the server serves.
    static func html(_ text: String) -> Response {
        response(Data(text.utf8), contentType: "text/html; charset=utf-8", cacheControl: "no-store")
    }
}
