import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Sits after HTTP's parser: tells the connection's ``ConnectionWatch`` when a request's head and end are read and a
/// response's end is written, and turns what goes wrong below the routes into answers:
/// - a parser error between requests is answered here as JSON (400, 431 for an oversized head) instead of
///   Hummingbird's empty 400, and the connection closed;
/// - a parser error or the end of input within a body reaches the route reading it as ``EdgeError``, which the
///   middleware answers (or logs as a client that went away);
/// - the body timeout reaches it the same way.
///
/// Once the server is stopping, each answer's head says `Connection: close`: the connection closes after it, and a
/// client that kept it alive would otherwise send its next request into the close and be reset.
final class RequestPhaseHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let watch: ConnectionWatch
    private var stopping = false
    /// Whether the answer being written says `Connection: close`.
    private var answerCloses = false
    /// For each request read and not yet answered, in order, whether it asked to close the connection.
    private var requestsClosing: [Bool] = []

    init(watch: ConnectionWatch) {
        self.watch = watch
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // The context outlives neither the handler nor the watch's use of it: the watch drops the closure when the
        // connection closes.
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        watch.onBodyTimeout = { error in loopBound.value.fireErrorCaught(error) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        watch.onBodyTimeout = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case let .head(request):
            // ``RequestHeadCheck`` wrote `close` in lowercase, whatever case the client used.
            requestsClosing.append(request.headerFields[.connection] == "close")
            watch.headRead()
        case .body: break
        case .end: watch.endRead()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var response):
            // The answer to a request that asked to close says so too, as it ends the connection (RFC 9112 §9.6).
            let requestCloses = requestsClosing.isEmpty ? false : requestsClosing.removeFirst()
            if stopping || requestCloses { response.headerFields[.connection] = "close" }
            answerCloses = response.headerFields[.connection]?.lowercased() == "close"
            context.write(wrapOutboundOut(.head(response)), promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end where answerCloses:
            // An answer that says the connection closes ends it (RFC 9112 §9.6), whatever the request said: one
            // answered before its body ended (a chunked body refused past the limit) has the rest discarded unread, and
            // nothing sent after it is answered (a 413 for a body read whole kept the connection and answered the next
            // request).
            let written = promise ?? context.eventLoop.makePromise()
            context.write(data, promise: written)
            let watch = NIOLoopBound(self.watch, eventLoop: context.eventLoop)
            written.futureResult.whenComplete { _ in watch.value.linger() }
        case .end:
            context.write(data, promise: promise)
            watch.responseWritten()
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // Hummingbird's connection handler, after this one, closes the connection once its answer is written.
        if event is ChannelShouldQuiesceEvent { stopping = true }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        if let forwarded = watch.parserFailed(parserError) { context.fireErrorCaught(forwarded) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let error = watch.closed() { context.fireErrorCaught(error) }
        watch.onBodyTimeout = nil
        context.fireChannelInactive()
    }
}
