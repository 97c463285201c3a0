import DeclutterSupport
import Foundation

/// Why a static-map URL was refused: the part at fault, what was wrong, and the HTTP status a server answers with.
public struct StaticMapRequestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status for the error.
    public enum Status: Int, Sendable, Hashable {
        /// The URL does not follow the grammar.
        case badRequest = 400
        /// The URL asks for more points, vertices or overlays than the limits allow.
        case contentTooLarge = 413
        /// The URL is longer than ``StaticMapLimits/maximumURLBytes``: HTTP's own status for it, which proxies use too.
        case uriTooLong = 414
        /// The URL is well formed but a value is out of range or refused (a custom marker image).
        case unprocessable = 422
    }

    /// The part of the URL at fault: `url`, `path`, `username`, `style`, `overlay`, `camera`, `width`, `height`,
    /// `scale`, or a query parameter's name.
    public var field: String
    /// What was wrong, naming the value and what was expected.
    public var message: String
    /// The HTTP status.
    public var status: Status

    /// Creates an error.
    public init(field: String, message: String, status: Status = .badRequest) {
        self.field = field
        self.message = message
        self.status = status
    }

    /// `{"error":"…","field":"…"}`, the body a server sends with ``status``.
    public var json: Data {
        Data(JSONValue.object(JSONObject([("error", .string(message)), ("field", .string(field))])).jsonText.utf8)
    }

    /// The field and the message.
    public var description: String { "\(field): \(message)" }
}
