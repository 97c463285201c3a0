import Foundation

/// Why the server could not listen where it was told: said in the options' terms, not the socket call's.
public struct ListenError: Error, Sendable, CustomStringConvertible {
    /// The host and port asked for.
    public var host: String, port: Int
    /// The system's error number: `EADDRINUSE`, `EACCES` or another.
    public var code: Int32

    /// What went wrong, and what to do about it.
    public var description: String {
        let address = "--host \(host) --port \(port)"
        switch code {
        case EADDRINUSE:
            return
                "\(address): the address is already in use (another server listens there); stop it or choose another --port"
        case EACCES:
            return
                "\(address): not permitted to listen there (ports below 1024 need privileges); choose a --port of 1024 or more"
        case EADDRNOTAVAIL:
            return
                "\(address): no network interface of this machine has that address; expected one of its own, such as 127.0.0.1"
        default:
            return "\(address): could not listen there (\(String(cString: strerror(code))))"
        }
    }
}

extension ListenError {
    /// Listens at `host`:`port` for a moment and lets go, so that a port in use is said before datasets take seconds
    /// to load; throws the error the server would. Port 0 (any free port), a host that does not resolve and a socket
    /// that cannot be made pass: the server then says what is wrong itself.
    public static func probe(host: String, port: Int) throws {
        guard port != 0 else { return }
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var found: UnsafeMutablePointer<addrinfo>? = nil
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let address = found else { return }
        defer { freeaddrinfo(found) }
        let socket = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
        guard socket >= 0 else { return }
        defer { close(socket) }
        // As the server binds: a port left in TIME_WAIT by a server just stopped is free, one listened on is not.
        var on: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        guard bind(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) != 0 || listen(socket, 1) != 0 else {
            return
        }
        let code = errno
        if [EADDRINUSE, EACCES, EADDRNOTAVAIL].contains(code) { throw ListenError(host: host, port: port, code: code) }
    }
}
