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
///   the answer rather than held until the idle timeout.
///
/// The answer is written by the connection's ``ConnectionWatch`` and the connection closed, after any answer still
/// pending; nothing more from the connection is read.
final class RequestHeadCheck: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    private let watch: ConnectionWatch
    /// Set once a request was refused: the rest of the connection's input is dropped.
    private var refused = false

    init(watch: ConnectionWatch) {
        self.watch = watch
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        if let refusal = Self.refusal(of: head) {
            refused = true
            watch.refuse(refusal)
            return
        }
        // An HTTP/1.0 request without `Connection: keep-alive` ends its connection with its answer (RFC 9112 §9.3); the
        // conversion to HTTP types drops the version, so it is said as HTTP/1.1 says it.
        if !head.isKeepAlive
            && !head.headers[canonicalForm: "Connection"].contains(where: { $0.lowercased() == "close" })
        {
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
        if head.method == .CONNECT {
            return RouteMethods.refusal(method: "CONNECT", path: String(head.uri.prefix { $0 != "?" }))
        }
        return nil
    }
}
