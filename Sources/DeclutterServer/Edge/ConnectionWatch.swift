import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1

/// One connection's phase and its one timer, on the connection's event loop: how long the client may take to send a
/// request's head, its body, or its next request, and what the server answers when it takes longer.
///
/// ``BytesHandler`` tells it when bytes arrive; ``RequestPhaseHandler`` when a head, a body's end and a
/// response's end pass. Only its event loop touches it.
final class ConnectionWatch {
    /// Where the connection stands.
    enum Phase {
        /// Bytes of a head are awaited or arriving: the header timeout runs. A new connection starts here.
        case head
        /// Kept alive after a response, no byte of the next request yet: the idle timeout runs.
        case idle
        /// A head was read and its body is being read: the body timeout runs.
        case body
        /// Requests read and not yet answered: no timeout here (the render time limit bounds the work).
        case busy
    }

    private(set) var phase = Phase.head
    /// Responses still to be written for requests read.
    private var pending = 0
    /// Whether bytes of a next request came while an answer was pending.
    private var bytesWhileBusy = false
    /// A malformed next request met while an answer was pending: answered once that answer is out.
    private var deferredRefusal: ServerError?
    private var timer: Scheduled<Void>?
    /// Runs while the socket takes no more of the answers (the client reads none of them): at the idle timeout the
    /// connection closes, else a client that pipelines requests for large answers and reads nothing held the
    /// connection, and the answers' bytes, for ever.
    private var stalled: Scheduled<Void>?
    /// Whether the connection answered a refusal and now only discards what the client still sends.
    private(set) var lingering = false
    /// Whether the sending side is shut and the linger's timer set.
    private var shut = false
    /// The context nearest the socket, where answers given below HTTP's parser are written as bytes.
    var socketContext: ChannelHandlerContext?
    let channel: any Channel
    let limits: ServerLimits
    let registry: ConnectionRegistry

    init(channel: any Channel, limits: ServerLimits, registry: ConnectionRegistry) {
        self.channel = channel
        self.limits = limits
        self.registry = registry
    }

    /// Starts the header timeout of a new connection.
    func start() {
        schedule(limits.headerSeconds)
    }

    /// Bytes arrived: an idle connection starts a request, and its head has the header timeout from now.
    func bytesArrived() {
        switch phase {
        case .idle:
            phase = .head
            schedule(limits.headerSeconds)
        case .busy: bytesWhileBusy = true
        case .head, .body: break
        }
    }

    /// A request's head was read: its body has the body timeout.
    func headRead() {
        phase = .body
        registry.update(channel, waitingSince: nil)
        schedule(limits.bodySeconds)
    }

    /// A request's end was read: it is the routes' until answered.
    func endRead() {
        pending += 1
        phase = .busy
        cancelTimer()
    }

    /// A response's end was written: with nothing else pending, the connection waits for its next request.
    func responseWritten() {
        pending = max(0, pending - 1)
        guard pending == 0, phase == .busy else { return }
        if let refusal = deferredRefusal {
            close(answering: refusal)
            return
        }
        phase = bytesWhileBusy ? .head : .idle
        bytesWhileBusy = false
        registry.update(channel, waitingSince: .now)
        schedule(phase == .head ? limits.headerSeconds : limits.idleSeconds)
    }

    /// What to do with an error from HTTP's parser: nil when it was answered here, else the error a request being read
    /// sees in its body.
    func parserFailed(_ error: HTTPParserError) -> (any Error)? {
        switch phase {
        case .body:
            // An end of input within a body is a client that went away, not a server failure.
            if error == .invalidEOFState { return EdgeError.clientWentAway }
            return EdgeError.malformed(error)
        case .busy:
            deferredRefusal = EdgeError.malformed(error).serverError
        case .head, .idle:
            if error != .invalidEOFState {
                close(answering: EdgeError.malformed(error).serverError)
            } else {
                channel.close(promise: nil)
            }
        }
        return nil
    }

    /// Writes `100 Continue` for a request whose client waits for it before sending the body, when no answer to an
    /// earlier request is still to be written (the interim answer would land inside it); such a rare pipelining
    /// client sends its body after its own wait.
    func sayContinue() {
        guard pending == 0, let context = socketContext, channel.isActive else { return }
        context.writeAndFlush(NIOAny(ByteBuffer(string: "HTTP/1.1 100 Continue\r\n\r\n")), promise: nil)
    }

    /// A request refused before the routes (``RequestHeadCheck``): answered and closed now, or once the answers
    /// pending before it are out.
    func refuse(_ error: ServerError) {
        if phase == .busy {
            deferredRefusal = error
        } else {
            close(answering: error)
        }
    }

    /// The socket stopped or started taking more of the answers.
    func writabilityChanged(writable: Bool) {
        stalled?.cancel()
        stalled = nil
        guard !writable else { return }
        let watch = NIOLoopBound(self, eventLoop: channel.eventLoop)
        stalled = channel.eventLoop.scheduleTask(in: .nanoseconds(Int64(limits.idleSeconds * 1e9))) {
            watch.value.stalled = nil
            watch.value.registry.metrics.recordConnectionClosed(reason: "send_timeout")
            watch.value.channel.close(promise: nil)
        }
    }

    /// The connection closed: its timers stop, and a body being read ends with ``ClientWentAway``.
    func closed() -> (any Error)? {
        cancelTimer()
        stalled?.cancel()
        stalled = nil
        registry.remove(channel)
        defer { phase = .busy }
        // A body cut short by the server's own answer and linger is no client that went away.
        return phase == .body && !lingering ? EdgeError.clientWentAway : nil
    }

    /// Closed to make room for a new connection: a half-sent head is told why.
    func evict() {
        if phase == .head {
            close(
                answering: ServerError(
                    .serviceUnavailable, field: "server",
                    "the server is at its connection limit and closed this connection, "
                        + "which had sent no complete request", retryAfter: 1), lingering: false)
        } else {
            channel.close(promise: nil)
        }
    }

    /// Hands the body timeout's error to the request being read; set by ``RequestPhaseHandler``.
    var onBodyTimeout: ((any Error) -> Void)?

    private func schedule(_ seconds: Double) {
        cancelTimer()
        // The task runs on the connection's event loop, the one that touches this watch (which NIOLoopBound checks).
        let watch = NIOLoopBound(self, eventLoop: channel.eventLoop)
        timer = channel.eventLoop.scheduleTask(in: .nanoseconds(Int64(seconds * 1e9))) { watch.value.timedOut() }
    }

    private func cancelTimer() {
        timer?.cancel()
        timer = nil
    }

    private func timedOut() {
        timer = nil
        switch phase {
        case .head:
            registry.metrics.recordConnectionClosed(reason: "header_timeout")
            close(
                answering: ServerError(
                    .requestTimeout, field: "request",
                    "the request's head did not arrive within \(limits.headerSeconds.messageText) s"))
        case .idle:
            registry.metrics.recordConnectionClosed(reason: "idle_timeout")
            channel.close(promise: nil)
        case .body:
            registry.metrics.recordConnectionClosed(reason: "body_timeout")
            onBodyTimeout?(EdgeError.bodyTimeout(limits.bodySeconds))
        case .busy:
            break
        }
    }

    /// Writes `error` as a whole HTTP message straight to the socket, then closes as a server must while the client
    /// may still be sending (a body it refused): see ``linger()``. A connection closed to make room for another closes
    /// at once.
    private func close(answering error: ServerError, lingering: Bool = true) {
        cancelTimer()
        registry.metrics.recordEdgeRefusal(status: Int(error.status.code))
        guard let context = socketContext, channel.isActive else {
            channel.close(promise: nil)
            return
        }
        let channel = self.channel
        guard lingering else {
            context.writeAndFlush(NIOAny(error.closingMessage)).whenComplete { _ in channel.close(promise: nil) }
            return
        }
        // Discarding starts now; the sending side is shut once the answer is out.
        self.lingering = true
        let watch = NIOLoopBound(self, eventLoop: channel.eventLoop)
        context.writeAndFlush(NIOAny(error.closingMessage)).whenComplete { _ in watch.value.linger() }
    }

    /// Ends a connection whose answer is out while its client may still be sending: the sending side is shut, so the
    /// client reads the answer and the end of the stream; what still arrives is discarded unread (where Hummingbird
    /// read a refused body to its end, 100 MB in a trial); and the connection closes when the client closes its side
    /// or ``lingerSeconds`` pass. Closing at once would answer the unread bytes with a reset, which can destroy the
    /// answer before the client reads it.
    func linger() {
        lingering = true
        guard !shut else { return }
        shut = true
        cancelTimer()
        let channel = self.channel
        channel.close(mode: .output).whenFailure { _ in channel.close(promise: nil) }
        let watch = NIOLoopBound(self, eventLoop: channel.eventLoop)
        timer = channel.eventLoop.scheduleTask(in: .nanoseconds(Int64(Self.lingerSeconds * 1e9))) {
            watch.value.timer = nil
            watch.value.channel.close(promise: nil)
        }
    }

    /// How long a refused connection discards what its client still sends before it closes: long enough for the
    /// answer to reach a client that reads it, as nginx's `lingering_time` does, short enough not to hold the
    /// connection for a client that never stops.
    static let lingerSeconds = 2.0

    /// The first handler of a connection, nearest the socket: tells the connection's ``ConnectionWatch`` when bytes
    /// arrive (a new request's header timeout runs from its first byte), and gives it the place to write the answers
    /// that HTTP's parser cannot carry.
    final class BytesHandler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer

        private let watch: ConnectionWatch

        init(watch: ConnectionWatch) {
            self.watch = watch
        }

        func handlerAdded(context: ChannelHandlerContext) {
            watch.socketContext = context
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            watch.socketContext = nil
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            // A refused connection's bytes are not requests: dropped before HTTP's parser.
            guard !watch.lingering else { return }
            watch.bytesArrived()
            context.fireChannelRead(data)
        }

        func channelWritabilityChanged(context: ChannelHandlerContext) {
            watch.writabilityChanged(writable: context.channel.isWritable)
            context.fireChannelWritabilityChanged()
        }
    }
}
