import DeclutterSupport
import Foundation
import Hummingbird

/// A strong `ETag` made from a response's bytes (64-bit FNV-1a), so that every replica gives the same tag for the
/// same bytes and a CDN or browser can revalidate with `If-None-Match`.
struct EntityTag: Hashable {
    /// The quoted tag, as the header carries it.
    let value: String

    /// The tag of `data`.
    init(_ data: Data) { value = "\"" + data.fnv1aHex + "\"" }

    /// A tag made elsewhere (a file's), quoted as the header carries it.
    init(quoted value: String) { self.value = value }

    /// Whether a conditional header's list (`"a", W/"b"` or `*`) names this tag: weakly for `If-None-Match` (a `W/`
    /// tag counts), strongly for `If-Match`.
    func isNamed(in list: String, weakly: Bool) -> Bool {
        list.split(separator: ",").contains { tag in
            let tag = tag.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == value || (weakly && tag == "W/" + value)
        }
    }

    /// Whether `request`'s `If-None-Match` names this tag (or `*`).
    func matches(_ request: Request) -> Bool {
        request.headers[.ifNoneMatch].map { isNamed(in: $0, weakly: true) } ?? false
    }

    /// 412 with the tag when `request`'s `If-Match` names other bytes (`what` says what it asked for); nil when it
    /// names these or there is none. RFC 9110 §13.2.2 has `If-Match` tested first.
    func preconditionFailure(_ request: Request, what: String) -> Response? {
        guard let condition = request.headers[.ifMatch], !isNamed(in: condition, weakly: false) else { return nil }
        var response = ServerError(
            .preconditionFailed, field: "if-match", "the \(what) is not the one asked for; it is \(value)"
        ).response
        response.headers[.eTag] = value
        return response
    }

    /// 200 with `data`, or 304 without a body when the request already has these bytes, or 412 when its `If-Match`
    /// names other bytes (only the archive route answered it before); each carries the tag, the first two
    /// `Cache-Control`.
    static func response(_ data: Data, to request: Request, contentType: String, cacheControl: String) -> Response {
        let tag = EntityTag(data)
        if let failure = tag.preconditionFailure(request, what: "resource") { return failure }
        if tag.matches(request) {
            return Response(status: .notModified, headers: [.eTag: tag.value, .cacheControl: cacheControl])
        }
        return MapServer.response(data, contentType: contentType, cacheControl: cacheControl, etag: tag.value)
    }
}
