import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1

/// Sits between HTTP's parser and the conversion to HTTP types, where a request's head is still as the client sent
/// it, and refuses what the conversion would hide from the routes:
/// - an HTTP/1.1 request without `Host`, or any request with more than one, is 400 (RFC 9112 §3.2 requires it; the
///   conversion keeps the first `Host` and drops the rest, so a proxy and this server could read different hosts);
/// - `CONNECT` is 405 with `Allow` (or 404 for a target no route has) and a JSON body: a response to `CONNECT`
///   written through the encoder loses its body, and the parser treats what follows as a tunnel;
/// - an HTTP/1.0 request that does not ask to keep its connection gets `Connection: close`, so that it is closed after
///   the answer rather than held until the idle timeout;
/// - `Expect: 100-continue` is answered `100 Continue` at once (curl and .NET wait a second for it before sending a
///   body), or 413 when the declared body is over the limit, before a byte of it is sent; any other expectation is
///   417 (RFC 9110 §10.1.1).
///
/// The answer is written by the connection's ``ConnectionWatch`` and the connection closed, after any answer still
/// pending; nothing more from the connection is read.
final class RequestHeadCheck: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    private let watch: ConnectionWatch
    /// The origins whose pages may read a refusal: a page whose `POST /static` is refused as too large then reads
    /// the JSON error, not a bare network failure.
    private let crossOrigins: CrossOrigins
    /// Set once a request was refused: the rest of the connection's input is dropped.
    private var refused = false

    init(watch: ConnectionWatch, crossOrigins: CrossOrigins = CrossOrigins(origins: [])) {
        self.watch = watch
        self.crossOrigins = crossOrigins
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        let expectations = Self.expectations(head)
        if var refusal = Self.refusal(of: head) ?? Self.refusal(ofExpectations: expectations)
            ?? Self.refusal(ofBody: head, bodyLimit: watch.limits.maximumBodyBytes)
        {
            refusal.extraHeaders = crossOrigins.headers(answering: head.headers["Origin"].first)
            refused = true
            watch.refuse(refusal)
            return
        }
        if expectations.contains(where: \.isContinue) { watch.sayContinue() }
        // An HTTP/1.0 request without `Connection: keep-alive` ends its connection with its answer (RFC 9112 §9.3); the
        // conversion to HTTP types drops the version, so it is said as HTTP/1.1 says it.
        // Connection options are case-insensitive (RFC 9110 §7.6.1), but Hummingbird closes only on a lowercase
        // `close`: `Close` kept the connection open while the parser took it as closed.
        if !head.isKeepAlive || Self.asksToClose(head) {
            head.headers.replaceOrAdd(name: "Connection", value: "close")
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    /// Why a request's head is refused here, or nil when it goes on to the routes.
    static func refusal(of head: HTTPRequestHead) -> ServerError? {
        let hosts = head.headers["Host"]
        if hosts.count > 1 {
            return ServerError(
                .badRequest, field: "Host", "the request has \(hosts.count) Host headers; HTTP allows one")
        }
        if hosts.isEmpty, (head.version.major, head.version.minor) >= (1, 1) {
            return ServerError(.badRequest, field: "Host", "an HTTP/1.1 request needs a Host header; it has none")
        }
        if let host = hosts.first, !host.isEmpty, !Self.isValidHost(host) {
            // A Host that is no host and port would be echoed into the URLs a TileJSON or style names.
            return ServerError(
                .badRequest, field: "Host",
                "the Host header \"\(host.prefix(64))\" is not a host name or address with an optional port")
        }
        if head.method == .CONNECT {
            return RouteMethods.refusal(method: "CONNECT", path: String(head.uri.prefix { $0 != "?" }))
        }
        return refusal(ofTransferEncoding: head)
    }

    /// Why a request's `Transfer-Encoding` is refused: in an HTTP/1.0 request it is faulty framing (400, RFC 9112 §6.1:
    /// a proxy of that version frames the message otherwise); a coding besides the final `chunked` is one the server
    /// does not decode (501, as nginx answers), where the body reached the routes still encoded.
    static func refusal(ofTransferEncoding head: HTTPRequestHead) -> ServerError? {
        let codings = head.headers["Transfer-Encoding"].flatMap { $0.split(separator: ",") }.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }.filter { !$0.isEmpty }
        guard !codings.isEmpty else { return nil }
        if (head.version.major, head.version.minor) < (1, 1) {
            var refusal = ServerError(
                .badRequest, field: "Transfer-Encoding",
                "an HTTP/1.0 request cannot use Transfer-Encoding; send the body with Content-Length")
            refusal.closesConnection = true
            return refusal
        }
        guard let other = codings.first(where: { $0 != "chunked" }) else { return nil }
        var refusal = ServerError(
            .notImplemented, field: "Transfer-Encoding",
            "the server decodes no transfer coding but chunked; the request uses \"\(other.prefix(32))\"")
        refusal.closesConnection = true
        return refusal
    }

    /// Whether the request's `Connection` header holds the option `close`, in any case.
    static func asksToClose(_ head: HTTPRequestHead) -> Bool {
        head.headers["Connection"].contains { value in
            value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "close" }
        }
    }

    /// Whether a Host header's value is RFC 3986's host with an optional port: a name or IPv4 address of unreserved
    /// characters, sub-delimiters and percent escapes, or an IP literal in brackets; the port digits up to 65535.
    static func isValidHost(_ value: String) -> Bool {
        var host = Substring(value), port: Substring? = nil
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            let literal = host[host.index(after: host.startIndex)..<close]
            guard !literal.isEmpty, literal.allSatisfy({ $0.isHexDigit || ":.".contains($0) }) else { return false }
            let rest = host[host.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else { return false }
            if !rest.isEmpty { port = rest.dropFirst() }
        } else {
            if let colon = host.lastIndex(of: ":") {
                port = host[host.index(after: colon)...]
                host = host[..<colon]
            }
            let allowed = "-._~!$&'()*+,;=%"
            guard
                host.unicodeScalars.allSatisfy({
                    $0.isASCII && (CharacterSet.alphanumerics.contains($0) || allowed.unicodeScalars.contains($0))
                })
            else { return false }
        }
        guard let port, !port.isEmpty else { return true }
        return port.count <= 5 && port.allSatisfy(\.isASCII) && port.allSatisfy(\.isNumber)
            && (Int(port) ?? .max) <= 65535
    }

    /// The request's expectations, each trimmed, and whether it is `100-continue` (in any case); none for HTTP/1.0,
    /// whose server ignores them.
    static func expectations(_ head: HTTPRequestHead) -> [(text: String, isContinue: Bool)] {
        guard (head.version.major, head.version.minor) >= (1, 1) else { return [] }
        return head.headers["Expect"].map {
            let text = $0.trimmingCharacters(in: .whitespaces)
            return (text, text.lowercased() == "100-continue")
        }
    }

    /// Why a request's `expectations` are refused: one other than `100-continue` (417); nil otherwise.
    static func refusal(ofExpectations expectations: [(text: String, isContinue: Bool)]) -> ServerError? {
        guard let other = expectations.first(where: { !$0.isContinue })?.text else { return nil }
        return ServerError(
            .expectationFailed, field: "Expect",
            "the server meets no expectation but 100-continue; the request expects \"\(other.prefix(64))\"")
    }

    /// A body declared over `bodyLimit`, refused (413) before it is read, on any route: a client waiting for `100
    /// Continue` then never sends it, and one sending it at once is answered and stops (the connection closes, its
    /// bytes discarded unread meanwhile), where the routes answered 413 and the server then read the whole body, 100 MB
    /// of it, to keep the connection.
    static func refusal(ofBody head: HTTPRequestHead, bodyLimit: Int) -> ServerError? {
        guard let length = head.headers["Content-Length"].first.flatMap({ Int($0) }), length > bodyLimit else {
            return nil
        }
        return MapServer.bodyTooLarge(length, limit: bodyLimit)
    }
}
