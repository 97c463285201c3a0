import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1.1 connection with the server's edge in front: the connection limit (``ConnectionRegistry``),
/// the header, body and idle timeouts (``ConnectionWatch``), heads refused before HTTP types hide them
/// (``RequestHeadCheck``), and JSON answers for what HTTP's parser refuses.
struct GuardedHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = HTTP1Channel.Value

    let responder: HTTPChannelHandler.Responder
    let limits: ServerLimits
    let registry: ConnectionRegistry
    /// The origins whose pages may read the refusals written here too.
    let crossOrigins: CrossOrigins

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let watch = ConnectionWatch(channel: channel, limits: limits, registry: registry)
        guard registry.admit(channel, watch: watch) else {
            let refusal = ServerError(
                .serviceUnavailable, field: "server",
                "the server has \(registry.limit) connections open, each with a request in progress; try again shortly",
                retryAfter: 1)
            // Answered once the connection is active: setup runs before it is, and a write then went nowhere, which
            // left the connection open and unread (its client waiting for ever). HTTP is set up behind the refusal,
            // as Hummingbird expects a channel, and sees nothing before the close.
            do {
                try channel.pipeline.syncOperations.addHandler(RefusalHandler(message: refusal.closingMessage))
            } catch {
                return channel.eventLoop.makeFailedFuture(error)
            }
            return HTTP1Channel(responder: responder).setup(channel: channel, logger: logger)
        }
        // However the connection ends, it leaves the registry (the phase handler may never have been added).
        channel.closeFuture.whenComplete { [registry] _ in registry.remove(channel) }
        do {
            try channel.pipeline.syncOperations.addHandler(ConnectionWatch.BytesHandler(watch: watch))
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        let bound = NIOLoopBound(watch, eventLoop: channel.eventLoop)
        let http = HTTP1Channel(
            responder: responder,
            configuration: .init(additionalChannelHandlers: [RequestPhaseHandler(watch: bound.value)]))
        watch.start()
        return http.setup(channel: channel, logger: logger).flatMapThrowing { value in
            // Before the conversion to HTTP types, which drops a second Host and a request's version.
            let decoder = try channel.pipeline.syncOperations.handler(
                type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try channel.pipeline.syncOperations.addHandler(
                RequestHeadCheck(watch: bound.value, crossOrigins: crossOrigins), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: value, logger: logger)
    }
}

/// The first handler of a connection refused at the limit: once the connection is active it writes the refusal and
/// ends its side, reading and dropping what the client sends, and closes when the client does or a quarter of a
/// second later.
///
/// Closing at once, with the request still unread, made the system reset the connection, which can throw away the
/// answer before the client reads it; the wait is short, since a refused connection holds a descriptor outside the
/// limit.
final class RefusalHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    private let message: ByteBuffer
    private var answered = false

    init(message: ByteBuffer) {
        self.message = message
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { answer(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        answer(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    private func answer(_ context: ChannelHandlerContext) {
        guard !answered else { return }
        answered = true
        let channel = context.channel
        context.writeAndFlush(NIOAny(message)).whenComplete { _ in
            channel.close(mode: .output, promise: nil)
            channel.eventLoop.scheduleTask(in: .milliseconds(250)) { channel.close(promise: nil) }
        }
    }
}
