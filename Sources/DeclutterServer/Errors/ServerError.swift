import DeclutterStaticAPI
import DeclutterSupport
import Foundation
import HTTPTypes
import Hummingbird
import NIOHTTP1

/// Why a request was refused: the HTTP status, the part of the request at fault and what was wrong, sent as
/// `{"error": "…", "field": "…"}`.
public struct ServerError: Error, Sendable, CustomStringConvertible {
    /// The HTTP status: 400 malformed, 404 unknown, 413 too large, 414 URL too long, 422 out of range, 503 busy.
    public var status: HTTPResponse.Status
    /// The part of the request at fault: a path segment's name (`style`, `camera`), a query parameter, `body`, `path`.
    public var field: String
    /// What was wrong, naming the value and what was expected.
    public var message: String
    /// Seconds a client should wait before trying again, sent as `Retry-After` (with 503).
    public var retryAfter: Int?

    /// Creates an error.
    public init(_ status: HTTPResponse.Status, field: String, _ message: String, retryAfter: Int? = nil) {
        self.status = status
        self.field = field
        self.message = message
        self.retryAfter = retryAfter
    }

    /// A static-map URL's error, with its field and status.
    public init(_ error: StaticMapRequestError) {
        self.init(HTTPResponse.Status(code: error.status.rawValue), field: error.field, error.message)
    }

    /// A library's error, answered with its kind's status (``FailureKind/status``), its own field or else `field`, the
    /// part of the request being read, and its message.
    public init(_ error: any DeclutterError, field: String) {
        self.init(error.kind.status, field: error.field ?? field, error.description)
    }

    /// Methods the resource answers, sent as `Allow` (with 405).
    public var allow: [HTTPRequest.Method] = []
    /// Whether the connection closes after the answer (a body that came too slowly or malformed), sent as
    /// `Connection: close` so that a client keeping it alive sends nothing more on it.
    var closesConnection = false
    /// Headers the answer carries besides those above: CORS headers for a refusal written at the connection's edge.
    var extraHeaders: [HTTPField] = []

    /// The JSON body: `{"error": "…", "field": "…"}` and a newline.
    var body: String {
        JSONValue.object(JSONObject([("error", .string(message)), ("field", .string(field))])).jsonText + "\n"
    }

    /// The headers every answer of it carries besides its framing: JSON, never stored, and `Retry-After` and `Allow`
    /// where set.
    private var headers: [HTTPField] {
        var headers = [
            HTTPField(name: .contentType, value: "application/json"), HTTPField(name: .cacheControl, value: "no-store"),
        ]
        if let retryAfter { headers.append(HTTPField(name: .retryAfter, value: String(retryAfter))) }
        if !allow.isEmpty {
            headers.append(HTTPField(name: .allow, value: allow.map(\.rawValue).joined(separator: ", ")))
        }
        if closesConnection { headers.append(HTTPField(name: .connection, value: "close")) }
        return headers + extraHeaders
    }

    /// The JSON response.
    public var response: Response {
        Response(status: status, headers: HTTPFields(headers), body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// The JSON response as the bytes of a whole HTTP/1.1 message that closes the connection: for the answers given
    /// below HTTP's parser (a connection refused at the limit, a head that came too slowly or malformed), where no
    /// request reached the routes.
    var closingMessage: ByteBuffer {
        let body = self.body
        // The phrase NIO gives the answers routes make (413 "Payload Too Large", 422 "Unprocessable Entity"), so that
        // a status reads the same whichever path answers it; ours where NIO has none (499).
        let known = HTTPResponseStatus(statusCode: status.code).reasonPhrase
        var head = "HTTP/1.1 \(status.code) \(known.isEmpty ? status.reasonPhrase : known)\r\n"
        // Every answer but a 1xx or 5xx carries Date (RFC 9110 §6.6.1), as those the routes make do.
        head += "Date: \(HTTPDate.formatter().string(from: Date()))\r\n"
        for field in headers { head += "\(field.name.rawName): \(field.value)\r\n" }
        head += "Content-Length: \(body.utf8.count)\r\n\(closesConnection ? "" : "Connection: close\r\n")\r\n"
        return ByteBuffer(string: head + body)
    }

    /// The status, field and message.
    public var description: String { "\(status.code) \(field): \(message)" }
}

extension FailureKind {
    /// The HTTP status a failure of this kind is answered with: the one place the server maps kinds to statuses.
    public var status: HTTPResponse.Status {
        switch self {
        case .badInput: .badRequest
        case .outOfRange: .unprocessableContent
        case .notFound: .notFound
        case .upstreamFailure: .badGateway
        case .limit: .contentTooLarge
        case .internalFailure: .internalServerError
        }
    }
}
