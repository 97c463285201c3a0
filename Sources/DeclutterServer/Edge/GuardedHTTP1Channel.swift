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

    /// Why a connection was closed before HTTP was set up on it: already answered 503.
    struct Refused: Error {}

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let watch = ConnectionWatch(channel: channel, limits: limits, registry: registry)
        guard registry.admit(channel, watch: watch) else {
            let refusal = ServerError(
                .serviceUnavailable, field: "server",
                "the server has \(registry.limit) connections open, each with a request in progress; try again shortly",
                retryAfter: 1)
            return channel.writeAndFlush(refusal.closingMessage)
                .flatMap { channel.close() }
                .flatMapThrowing { throw Refused() }
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
                RequestHeadCheck(watch: bound.value), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: value, logger: logger)
    }
}
