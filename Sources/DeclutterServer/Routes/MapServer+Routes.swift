import DeclutterCore
import DeclutterRender
import Foundation
import Hummingbird

extension MapServer {
    /// Every route, behind ``ServerMiddleware``.
    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: ServerMiddleware(metrics: metrics, pool: pool))
        router.get("/health") { _, _ in
            let names = datasets.keys.sorted().map { JSONValue.string($0) }
            let json = JSONValue.object(JSONObject([("status", .string("ok")), ("datasets", .array(names))]))
            return Self.response(Data((json.jsonText + "\n").utf8), contentType: "application/json", cacheControl: "no-store")
        }
        router.get("/metrics") { _, _ in
            let load = pool.load
            metrics.recordPool(running: load.running, queued: load.queued)
            return Self.response(Data(metrics.text().utf8), contentType: "text/plain; version=0.0.4", cacheControl: "no-store")
        }
        router.get("/styles/v1/**") { request, _ in
            let mapRequest: StaticMapRequest
            do {
                mapRequest = try StaticMapRequest(path: request.uri.path, query: Self.query(request), limits: limits.staticMap)
            } catch let error as StaticMapRequestError {
                throw ServerError(error)
            }
            var drawing = try MapDrawing(request: mapRequest, style: styles.style(named: mapRequest.style))
            drawing.basemap = tiles.map { .tiles($0) } ?? .world
            drawing.maxTiles = limits.maximumTiles
            return try await response(draw(drawing), format: drawing.format)
        }
        router.get("/datasets/:name/static/:camera/:size") { request, context in
            let dataset = try dataset(context.parameters.get("name") ?? "")
            let camera = context.parameters.get("camera") ?? ""
            // The camera and size are read as a Mapbox URL's; `auto` fits the dataset, which is no overlay of the URL.
            let path = "/styles/v1/declutter/dataset/static/\(camera == "auto" ? "[-1,-1,1,1]" : camera)/\(context.parameters.get("size") ?? "")"
            var mapRequest: StaticMapRequest
            do {
                mapRequest = try StaticMapRequest(path: path, query: Self.query(request), limits: limits.staticMap)
            } catch let error as StaticMapRequestError {
                throw ServerError(error)
            }
            if camera == "auto" { mapRequest.camera = .auto }
            var drawing = try MapDrawing(request: mapRequest, style: dataset.style)
            drawing.annotator = dataset.annotator
            drawing.basemap = tiles.map { .tiles($0) } ?? .world
            drawing.maxTiles = limits.maximumTiles
            return try await response(draw(drawing), format: drawing.format)
        }
        return router
    }

    /// The dataset named `name`.
    ///
    /// - Throws: ``ServerError`` 404 naming the field `dataset`.
    func dataset(_ name: String) throws -> Dataset {
        guard let dataset = datasets[name] else {
            let names = datasets.keys.sorted().joined(separator: ", ")
            throw ServerError(.notFound, field: "dataset", "no dataset \"\(name.prefix(64))\"; datasets: \(names.isEmpty ? "none" : names)")
        }
        return dataset
    }

    /// The query's pairs, values decoded, in order.
    static func query(_ request: Request) -> [(String, String)] {
        request.uri.queryParameters.map { (String($0.key), String($0.value)) }
    }
}
