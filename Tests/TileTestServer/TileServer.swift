import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A minimal HTTP/1.1 server on 127.0.0.1 for tile tests without a network: fixed bytes by path, or whatever
/// answer a test chooses per request, including none at all.
public final class TileServer: @unchecked Sendable {
    /// What the server does with one request.
    public enum Reply: Sendable {
        /// An answer with a status, extra header lines and a body.
        case answer(status: Int, headers: [String: String] = [:], body: Data = Data())
        /// No answer: the connection stays open until the client gives up or the server stops.
        case silence
        /// The connection is closed without a word.
        case hangUp
    }

    /// The port it listens on.
    public let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var paths: [String] = []
    private var open: Set<Int32> = []
    private var stopped = false
    /// Set once the serving thread has closed the listener: its number may then be another socket's.
    private var listenerClosed = false
    private let respond: @Sendable (_ path: String, _ earlier: Int) -> Reply

    /// Serves `files` by path (404 for others); `failures` answers a path with 503 that many times before serving it.
    public convenience init(files: [String: Data], failures: [String: Int] = [:]) throws {
        try self.init { path, earlier in
            if earlier < failures[path, default: 0] { return .answer(status: 503) }
            guard let data = files[path] else { return .answer(status: 404) }
            return .answer(status: 200, body: data)
        }
    }

    /// Answers each request as `respond` says, given its path and how often that path was asked for before.
    public init(respond: @escaping @Sendable (_ path: String, _ earlier: Int) -> Reply) throws {
        self.respond = respond
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        listener = fd
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 64) == 0 else { throw CocoaError(.fileWriteUnknown) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// A port on 127.0.0.1 where nothing listens, so connections to it are refused.
    public static func closedPort() throws -> UInt16 {
        let server = try TileServer(files: [:])
        server.stop()
        return server.port
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        return address
    }

    /// The paths requested so far, in order.
    public var requests: [String] {
        lock.lock()
        defer { lock.unlock() }
        return paths
    }

    /// Stops listening and ends the connections held open; later calls do nothing.
    ///
    /// Only shuts the sockets down: the threads that use them close them. Closing the listener here let a thread that
    /// had not reached `accept` yet take the same descriptor number after another test's server reopened it, and
    /// answer that server's requests from the wrong files.
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        if !listenerClosed { shutdown(listener, Int32(SHUT_RDWR)) }
        for client in open { shutdown(client, Int32(SHUT_RDWR)) }
    }

    private func serve() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                // A connection its client reset before it was taken, or a signal, is no reason to stop listening.
                let transient = errno == EINTR || errno == ECONNABORTED
                lock.lock()
                defer { lock.unlock() }
                if transient && !stopped { continue }
                // Closed under the lock, so that `stop` never shuts down whatever then holds the number.
                listenerClosed = true
                close(listener)
                return
            }
            lock.lock()
            open.insert(client)
            lock.unlock()
            // A thread per connection, so that one held open does not keep the others waiting.
            Thread { [self] in
                handle(client)
                lock.lock()
                open.remove(client)
                lock.unlock()
                close(client)
            }.start()
        }
    }

    private func handle(_ client: Int32) {
        var request = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !request.ends(with: Array("\r\n\r\n".utf8)) {
            let count = read(client, &buffer, buffer.count)
            guard count > 0 else { return }
            request += buffer[0..<count]
        }
        let line = String(decoding: request.prefix { $0 != 13 }, as: UTF8.self).split(separator: " ")
        let path = line.count > 1 ? String(line[1]) : "/"
        lock.lock()
        paths.append(path)
        let earlier = paths.filter { $0 == path }.count - 1
        lock.unlock()
        switch respond(path, earlier) {
        case .hangUp:
            return
        case .silence:
            // Until the client hangs up or stop() shuts the socket down.
            while read(client, &buffer, buffer.count) > 0 {}
        case let .answer(status, headers, body):
            var head =
                "HTTP/1.1 \(status) \(Self.reason(status))\r\nContent-Type: image/png\r\nContent-Length: \(body.count)\r\n"
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
            head += "Connection: close\r\n\r\n"
            let bytes = Array(head.utf8) + Array(body)
            var sent = 0
            while sent < bytes.count {
                // MSG_NOSIGNAL: a client that has hung up must not end the test process with SIGPIPE.
                let count = bytes[sent...].withUnsafeBufferPointer {
                    send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                guard count > 0 else { return }
                sent += count
            }
        }
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 503: "Service Unavailable"
        default: "Status \(status)"
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
