import DeclutterClustering
import DeclutterGeometry
import DeclutterPlacement
import DeclutterServer
import DeclutterTileSources
import DeclutterTiles
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One HTTP/1.1 GET to a server on 127.0.0.1, over a plain socket (`Connection: close`, read to the end), so that the
/// benchmark can see a server is up and answers its URL before wrk measures it, without linking an HTTP client.
struct LoopbackRequest {
    var port: Int
    var path: String
    /// For connecting, sending and each read.
    var timeoutSeconds = 10

    /// What the server answered.
    struct Response {
        var status: Int
        /// Header names in lower case.
        var headers: [String: String]
        var body: [UInt8]
    }

    /// A socket call that failed, or an answer that is not HTTP.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Sends the request and reads the whole response (up to 64 MB).
    func send() throws -> Response {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(socket) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = Self.loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            throw Failure(description: "connect to 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
        }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8)
        guard Glibc.send(socket, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else {
            throw Failure(description: "send to 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
        }
        var bytes: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count >= 0 else {
                throw Failure(description: "read from 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            bytes += buffer[0..<count]
            guard bytes.count <= 64 << 20 else { throw Failure(description: "the answer to GET \(path) is over 64 MB") }
        }
        return try Self.parse(bytes, path: path)
    }

    /// The status line, headers and body of a response read to its end.
    static func parse(_ bytes: [UInt8], path: String) throws -> Response {
        let separator = Array("\r\n\r\n".utf8)
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else {
            throw Failure(description: "the answer to GET \(path) has no end of headers")
        }
        let head = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusWords = head[0].split(separator: " ")
        guard statusWords.count >= 2, statusWords[0].hasPrefix("HTTP/"), let status = Int(statusWords[1]) else {
            throw Failure(description: "the answer to GET \(path) is not HTTP: \(head[0])")
        }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        // A chunked body keeps its chunk sizes: the benchmark reads only the status and headers of such an answer.
        return Response(status: status, headers: headers, body: Array(bytes[(end + separator.count)...]))
    }

    /// 127.0.0.1 at `port`.
    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        return address
    }

    /// A TCP port on 127.0.0.1 that nothing listens on now: the kernel's choice for port 0, released for the server
    /// that is started next to take.
    static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(socket) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(socket, pointer, length) == 0 && getsockname(socket, pointer, &length) == 0
            }
        }
        guard bound else {
            throw Failure(description: "no free port on 127.0.0.1: \(String(cString: strerror(errno)))")
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
