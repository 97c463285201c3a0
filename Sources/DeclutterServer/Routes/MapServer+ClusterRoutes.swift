import DeclutterClustering
import DeclutterGeometry
import DeclutterSupport
import DeclutterTiles
import Foundation
import Hummingbird

extension MapServer {
    /// The most leaves one request may ask for.
    static let maximumLeaves = 10_000

    /// `/tiles/{dataset}/clusters/{id}/leaves?limit=&offset=`, `/children` and `/expansion-zoom`: what a click on a
    /// cluster of the dataset's tiles can ask, by the `cluster_id` the tile gave it, as supercluster's `getLeaves`,
    /// `getChildren` and `getClusterExpansionZoom` answer for its own clusters.
    func addClusterRoutes(to router: Router<BasicRequestContext>) {
        // A constant segment outranks the tile route's `{z}`, so `clusters` is never read as a zoom.
        router.get("/tiles/:name/clusters/:id/:query") { request, context in
            let dataset = try dataset(context.parameters.get("name") ?? "")
            let text = context.parameters.get("id") ?? ""
            guard (1...19).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }), let id = UInt64(text)
            else {
                throw ServerError(
                    .badRequest, field: "cluster_id",
                    "cluster id \"\(text.prefix(24))\" is not a cluster id; expected a whole number 0 or more")
            }
            let tileset = dataset.tiles.tileset
            let question = context.parameters.get("query") ?? ""
            try Self.checkParameters(request, allowed: question == "leaves" ? ["limit", "offset"] : [])
            let limit = try Self.count(request, "limit", default: 10, upTo: Self.maximumLeaves)
            let offset = try Self.count(request, "offset", default: 0, upTo: Int(Int32.max))
            guard ["leaves", "children", "expansion-zoom"].contains(question) else {
                throw ServerError(
                    .notFound, field: "path",
                    "expected leaves, children or expansion-zoom after the cluster id, got \"\(question.prefix(40))\"")
            }
            // On the tiles' threads, as a tile is made: 10,000 leaves take a fifth of a second, and answered on the
            // request's task they held up every other request, /health among them, for seconds under load.
            let answer = try await work.tilesPool.run(timeLimit: limits.renderSeconds) { _ -> String in
                switch question {
                case "leaves": try tileset.leavesGeoJSON(of: id, limit: limit, offset: offset).jsonText
                case "children": try tileset.childrenGeoJSON(of: id).jsonText
                default:
                    JSONValue.object(
                        JSONObject([("expansion_zoom", .number(Double(try tileset.expansionZoom(of: id))))])
                    ).jsonText
                }
            }
            return EntityTag.response(
                Data(answer.utf8), to: request,
                contentType: question == "expansion-zoom" ? "application/json" : "application/geo+json",
                cacheControl: Self.tileCacheControl)
        }
    }

    /// Refuses a query parameter the route does not take, or one given twice: the answer would silently differ from
    /// what was asked, as the static maps' URLs refuse it.
    ///
    /// - Throws: ``ServerError`` 400 naming the parameter.
    static func checkParameters(_ request: Request, allowed: [String]) throws {
        var seen: Set<String> = []
        for (name, _) in query(request) {
            guard allowed.contains(name) else {
                throw ServerError(
                    .badRequest, field: String(name.prefix(40)),
                    "unknown parameter \"\(name.prefix(40))\"; "
                        + (allowed.isEmpty ? "this route takes none" : "expected \(allowed.joined(separator: " or "))"))
            }
            guard seen.insert(name).inserted else {
                throw ServerError(.badRequest, field: name, "\(name) is given twice")
            }
        }
    }

    /// A whole-number query parameter within 0…`limit`, else `fallback` when absent.
    ///
    /// - Throws: ``ServerError`` naming the parameter: 400 when it is no whole number, 422 when it is past `limit`.
    static func count(_ request: Request, _ name: String, default fallback: Int, upTo limit: Int) throws -> Int {
        guard let text = query(request).first(where: { $0.0 == name })?.1 else { return fallback }
        let message = "\(name) \"\(text.prefix(20))\" must be a whole number 0…\(limit)"
        guard text.count <= 10, !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(text)
        else {
            // Eleven digits and more are a number too, only far out of range.
            if !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) {
                throw ServerError(.unprocessableContent, field: name, message)
            }
            throw ServerError(.badRequest, field: name, message)
        }
        guard value <= limit else { throw ServerError(.unprocessableContent, field: name, message) }
        return value
    }
}
