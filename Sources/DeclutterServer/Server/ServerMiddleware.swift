import DeclutterSupport
import Foundation
import Hummingbird
import Logging

/// Wraps every route, the 404 for no route included: turns errors into JSON answers
/// (`{"error": "…", "field": "…"}`), counts and times requests per route, and logs each request.
struct ServerMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = DispatchTime.now().uptimeNanoseconds
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            response = Self.serverError(error, request: request, logger: context.logger).response
        }
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        let route = context.endpointPath ?? "NotFound"
        metrics.recordRequest(route: route, method: request.method.rawValue, status: response.status.code, nanoseconds: elapsed)
        context.logger.info("request", metadata: [
            "method": .string(request.method.rawValue), "path": .string(String(request.uri.path.prefix(200))), "route": .string(route),
            "status": .stringConvertible(response.status.code), "ms": .stringConvertible(Double(elapsed / 1000) / 1000),
        ])
        return response
    }

    /// Any error as a ``ServerError``: Hummingbird's own (no route, a body over the limit) with a field, anything else
    /// a 500 whose detail goes to the log only.
    static func serverError(_ error: any Error, request: Request, logger: Logger) -> ServerError {
        switch error {
        case let error as ServerError:
            return error
        case let error as any DeclutterError where error.kind != .internalFailure:
            return ServerError(error, field: "request")
        case let error as HTTPError where error.status == .notFound:
            return ServerError(.notFound, field: "path", "no route for \(request.method.rawValue) \(request.uri.path.prefix(200))")
        case let error as HTTPError where error.status == .contentTooLarge:
            return ServerError(.contentTooLarge, field: "body", "the request body is over the server's limit")
        case let error as HTTPError:
            return ServerError(error.status, field: "request", error.body ?? error.status.reasonPhrase)
        default:
            logger.error("internal error", metadata: ["error": .string(String(describing: error)), "path": .string(String(request.uri.path.prefix(200)))])
            return ServerError(.internalServerError, field: "server", "the map could not be drawn: \(error)")
        }
    }
}
