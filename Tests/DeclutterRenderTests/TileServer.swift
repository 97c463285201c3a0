import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A minimal HTTP/1.1 server on 127.0.0.1 that serves fixed bytes by path, for tile tests without a network.
final class TileServer: @unchecked Sendable {
    /// The port it listens on.
    let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var paths: [String] = []
    private let files: [String: Data]
    private let failures: [String: Int]

    /// Serves `files` by path; `failures` answers a path with 503 that many times before serving it.
    init(files: [String: Data], failures: [String: Int] = [:]) throws {
        self.files = files
        self.failures = failures
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        listener = fd
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
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

    /// The paths requested so far, in order.
    var requests: [String] {
        lock.lock()
        defer { lock.unlock() }
        return paths
    }

    private var stopped = false

    /// Stops listening; later calls do nothing.
    ///
    /// Only shuts the socket down: the serving thread closes it once `accept` fails. Closing it here let a
    /// thread that had not reached `accept` yet take the same descriptor number after another test's server
    /// reopened it, and answer that server's requests from the wrong files.
    func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private func serve() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                close(listener)
                return
            }
            handle(client)
            close(client)
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
        let body: Data, status: String
        if earlier < failures[path, default: 0] {
            (status, body) = ("503 Service Unavailable", Data())
        } else if let data = files[path] {
            (status, body) = ("200 OK", data)
        } else {
            (status, body) = ("404 Not Found", Data())
        }
        let head = "HTTP/1.1 \(status)\r\nContent-Type: image/png\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + Array(body)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBufferPointer { write(client, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            sent += count
        }
    }
}

private extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
