import DeclutterSupport
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1

/// Wraps every route, the 404 for no route included: refuses URLs over the limit before routing, turns errors into
/// JSON answers (`{"error": "…", "field": "…"}`), counts and times requests per route, and logs each request.
///
/// A 503 (a full queue) is logged once per burst rather than once per request, as refusals come by the thousand a
/// second under overload; a client that went away is logged as 499 at `info`, as it is no server failure.
struct ServerMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics
    let limits: ServerLimits
    let refusals = BurstLog(quietSeconds: 10)

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let start = DispatchTime.now().uptimeNanoseconds
        var response: Response
        let urlBytes = request.uri.description.utf8.count
        if urlBytes > limits.staticMap.maximumURLBytes {
            // Before routing, so that no part of a long URL is matched, parsed or echoed.
            response =
                ServerError(
                    .uriTooLong, field: "url",
                    "the URL is \(urlBytes) bytes; the limit is \(limits.staticMap.maximumURLBytes)"
                ).response
        } else {
            do {
                response = try await next(request, context)
            } catch {
                response = Self.serverError(error, request: request, logger: context.logger).response
            }
        }
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        // A wrong method finds no route in the router, which knows routes by method and path (and names the route
        // `NotFound`): it is counted under the route its path has.
        let taken = context.endpointPath.flatMap { $0 == "NotFound" ? nil : $0 }
        let route =
            taken ?? (response.status == .methodNotAllowed ? RouteMethods.pattern(path: request.uri.path) : nil)
            ?? "NotFound"
        metrics.recordRequest(
            route: route, method: request.method.rawValue, status: response.status.code, nanoseconds: elapsed)
        let metadata: Logger.Metadata = [
            "method": .string(request.method.rawValue), "path": .string(String(request.uri.path.prefix(200))),
            "route": .string(route),
            "status": .stringConvertible(response.status.code), "ms": .stringConvertible(Double(elapsed / 1000) / 1000),
        ]
        if response.status == .serviceUnavailable {
            refusals.log(
                "answering 503: a queue is full or a map passed its time limit", level: .warning, metadata: metadata,
                to: context.logger)
        } else {
            context.logger.info("request", metadata: metadata)
        }
        return response
    }

    /// A body refused part way as over the limit: the connection closes after the answer, where the rest of the body
    /// (100 MB, chunked, in a trial) was read to keep it.
    static var bodyOverLimit: ServerError {
        var error = ServerError(.contentTooLarge, field: "body", "the request body is over the server's limit")
        error.closesConnection = true
        return error
    }

    /// Any error as a ``ServerError``: Hummingbird's own (no route, a body over the limit) with a field, what happened
    /// on the connection (``EdgeError``), anything else a 500 whose detail goes to the log only.
    static func serverError(_ error: any Error, request: Request, logger: Logger) -> ServerError {
        switch error {
        case let error as ServerError:
            return error
        case let error as EdgeError:
            return error.serverError
        case let error as any DeclutterError where error.kind != .internalFailure:
            return ServerError(error, field: "request")
        case is NIOTooManyBytesError:
            // A chunked body has no length to check before reading: it is refused when it passes the limit.
            return bodyOverLimit
        case let error as HTTPParserError:
            return EdgeError.malformed(error).serverError
        case let error as HTTPError where error.status == .notFound:
            return RouteMethods.refusal(method: request.method.rawValue, path: request.uri.path)
        case let error as HTTPError where error.status == .contentTooLarge:
            return bodyOverLimit
        case let error as HTTPError:
            return ServerError(error.status, field: "request", error.body ?? error.status.reasonPhrase)
        default:
            logger.error(
                "internal error",
                metadata: [
                    "error": .string(String(describing: error)), "path": .string(String(request.uri.path.prefix(200))),
                ])
            return ServerError(
                .internalServerError, field: "server", "the request could not be answered: an internal error, logged")
        }
    }
}
