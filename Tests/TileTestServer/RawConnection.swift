import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A plain TCP connection to 127.0.0.1 for tests that speak HTTP byte by byte: half-sent heads, malformed framing,
/// bodies that stop halfway. Reads wait at most a given time, so that a test never hangs on a server that says nothing.
public final class RawConnection: @unchecked Sendable {
    /// The socket.
    public let descriptor: Int32

    /// Why a connection could not be made.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Connects to `port` on 127.0.0.1.
    ///
    /// A failed connection closes its socket once: `deinit` runs after a throw here too (the object is whole), and a
    /// second `close` of the same number closed whatever the process had opened under it since — in a full run, a
    /// connection the server under test had just accepted, which crashed NIO (`getpeername`: bad file descriptor).
    public init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else {
            closed = true
            throw Failure(description: "socket: \(String(cString: strerror(errno)))")
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            quit()
            throw Failure(description: "connect: \(reason)")
        }
    }

    private var closed = false

    deinit { if !closed { close(descriptor) } }

    /// Closes the connection, as a client that quits.
    public func quit() {
        guard !closed else { return }
        closed = true
        close(descriptor)
    }

    /// Sends `text`'s bytes; false when the server has closed the connection.
    @discardableResult
    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Sends `bytes`; false when the server has closed the connection.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Closes the sending half, as a client that has said all it will.
    public func finishSending() { shutdown(descriptor, Int32(SHUT_WR)) }

    /// Everything the server sends until it closes the connection, a whole response with a `Content-Length` has come,
    /// or `seconds` pass without a byte. The default minute is for the full test run on two cores, where the other suites
    /// can keep Swift's task threads, and with them an in-process server's answers, busy for more than ten seconds
    /// (two edge tests then read nothing, twice in a row).
    public func receive(waiting seconds: Double = 60) -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Self.wholeResponseLength(received).map({ received.count < $0 }) ?? true {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(seconds * 1000)) == 1 else { return received }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return received }
            received += buffer[..<count]
        }
        return received
    }

    /// Whether the server closes the connection within `seconds` without sending anything more, on a thread of its own.
    public func closedByServer(within seconds: Double = 60) async -> Bool {
        await withCheckedContinuation { continuation in
            Thread {
                var poller = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
                var byte: UInt8 = 0
                let closed = poll(&poller, 1, Int32(seconds * 1000)) == 1 && recv(self.descriptor, &byte, 1, 0) == 0
                continuation.resume(returning: closed)
            }.start()
        }
    }

    /// The length of the response at the start of `bytes` once its head is in and names a `Content-Length`; nil before.
    static func wholeResponseLength(_ bytes: [UInt8]) -> Int? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard bytes.count >= 4,
            let end = (0...(bytes.count - 4)).first(where: { bytes[$0..<($0 + 4)].elementsEqual(separator) })
        else { return nil }
        let head = String(decoding: bytes[..<end], as: UTF8.self).lowercased()
        guard let line = head.components(separatedBy: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
            let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
        else { return nil }
        return end + 4 + length
    }

    /// How many bytes the server sends until it closes the connection, or `seconds` pass without a byte, read on a
    /// thread of its own.
    public func drained(waiting seconds: Double = 10) async -> Int {
        await withCheckedContinuation { continuation in
            Thread {
                var total = 0
                var buffer = [UInt8](repeating: 0, count: 65536)
                while true {
                    var poller = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
                    guard poll(&poller, 1, Int32(seconds * 1000)) == 1 else { break }
                    let count = buffer.withUnsafeMutableBytes { recv(self.descriptor, $0.baseAddress, $0.count, 0) }
                    guard count > 0 else { break }
                    total += count
                }
                continuation.resume(returning: total)
            }.start()
        }
    }

    /// Whether bytes or the end of the stream are waiting to be read now.
    public var hasInput: Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) == 1
    }

    /// One HTTP response as text: what ``receive(waiting:)`` reads, on a thread of its own, so that an async test's
    /// wait does not hold one of the few threads the server under test runs its handlers on.
    public func response(waiting seconds: Double = 60) async -> RawResponse {
        RawResponse(String(decoding: await received(waiting: seconds), as: UTF8.self))
    }

    /// ``receive(waiting:)`` on a thread of its own, for async tests.
    public func received(waiting seconds: Double = 60) async -> [UInt8] {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.receive(waiting: seconds)) }.start()
        }
    }
}

/// An HTTP/1.1 response read as text: its status, headers and body.
public struct RawResponse: Sendable {
    /// The whole text.
    public var text: String
    /// The status code; 0 when there was no status line.
    public var status: Int
    /// Header names in lower case, with their values.
    public var headers: [String: String]
    /// What follows the head.
    public var body: String

    /// Parses `text`.
    public init(_ text: String) {
        self.text = text
        let parts = text.components(separatedBy: "\r\n\r\n")
        let head = parts.first?.components(separatedBy: "\r\n") ?? []
        let statusWords = head.first?.split(separator: " ") ?? []
        status = statusWords.count >= 2 ? Int(statusWords[1]) ?? 0 : 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        self.headers = headers
        body = parts.dropFirst().joined(separator: "\r\n\r\n")
    }
}
