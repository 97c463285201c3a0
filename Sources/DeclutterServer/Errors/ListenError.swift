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
