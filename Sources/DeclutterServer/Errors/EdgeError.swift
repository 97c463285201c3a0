import Foundation
import Hummingbird
import NIOHTTP1

/// What goes wrong with a request below the routes, on the connection: a client that went away, framing HTTP's parser
/// refused, a body that came too slowly. A route reading the body sees it; ``ServerMiddleware`` answers it.
enum EdgeError: Error, Sendable {
    /// The connection closed before the request was read whole: nobody is left to answer (logged as 499, nginx's
    /// "client closed request", not as a server failure).
    case clientWentAway
    /// HTTP's parser refused the bytes.
    case malformed(HTTPParserError)
    /// The body did not arrive within the body timeout, in seconds.
    case bodyTimeout(Double)

    /// The status logged for a client that went away: no answer reaches it.
    static let clientClosedRequest = 499

    /// The answer: 400 for malformed framing (431 for a head over the parser's limits), 408 for a slow body.
    var serverError: ServerError {
        switch self {
        case .clientWentAway:
            return ServerError(
                HTTPResponse.Status(code: Self.clientClosedRequest, reasonPhrase: "Client Closed Request"),
                field: "request",
                "the client closed the connection before the request was read")
        case let .bodyTimeout(seconds):
            var error = ServerError(
                .requestTimeout, field: "body", "the request's body did not arrive within \(seconds.messageText) s")
            error.closesConnection = true
            return error
        case let .malformed(error):
            let (status, field, message) = Self.explained(error)
            var refusal = ServerError(status, field: field, "malformed HTTP/1.1 request: \(message)")
            refusal.closesConnection = true
            return refusal
        }
    }

    /// The status, the part of the request at fault and what was wrong, for an error of HTTP's parser.
    static func explained(_ error: HTTPParserError) -> (HTTPResponse.Status, String, String) {
        switch error {
        case .headerOverflow:
            (
                .init(code: 431, reasonPhrase: "Request Header Fields Too Large"), "headers",
                "the request's head (its URL and header lines) is over the server's limits: 80 KiB, or too many "
                    + "header lines; a map with more points or overlays than a URL holds is sent to POST /static as JSON"
            )
        case .invalidChunkSize: (.badRequest, "body", "a chunk's size is not a hexadecimal number")
        case .invalidContentLength: (.badRequest, "Content-Length", "Content-Length is not a number")
        case .unexpectedContentLength:
            (.badRequest, "Content-Length", "Content-Length is given with Transfer-Encoding, or twice")
        case .invalidMethod:
            (
                .badRequest, "method",
                "the method is not one HTTP's parser knows; methods are case-sensitive (GET, HEAD, POST, OPTIONS)"
            )
        case .invalidVersion: (.badRequest, "version", "the version is not HTTP/1.0 or HTTP/1.1")
        case .invalidURL, .invalidPath, .invalidQueryString, .invalidFragment, .invalidHost, .invalidPort:
            (.badRequest, "path", "the request target is not a valid URL path")
        case .invalidHeaderToken, .invalidCharactersUsed:
            (.badRequest, "headers", "a header name or value has characters HTTP does not allow")
        case .lfExpected, .invalidConstant: (.badRequest, "request", "a line does not end as HTTP requires")
        case .trailingGarbage: (.badRequest, "request", "bytes follow the request where none may")
        case .unknown:
            (
                .badRequest, "request",
                "the request's framing is not valid: a line end, a chunk's size or the transfer coding is not as HTTP/1.1 "
                    + "requires"
            )
        default: (.badRequest, "request", "\(error)")
        }
    }
}
