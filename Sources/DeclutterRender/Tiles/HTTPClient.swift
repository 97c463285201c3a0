import CCairo
import Foundation

/// Blocking HTTP(S) GET requests through libcurl, which is opened on first use.
///
/// Linking FoundationNetworking would load libcurl with its TLS, Kerberos and LDAP libraries into every process,
/// about 15 ms of each run's start, although only maps over HTTP tiles need them; opening libcurl on demand keeps
/// that cost to the runs that fetch. One client serves any number of threads, each through its own ``Connection``.
final class HTTPClient: Sendable {
    /// A request's outcome: the status and body of an answer, or why there was none.
    enum Outcome: Sendable {
        /// The server answered.
        case answer(status: Int, body: Data)
        /// No answer: connection refused, name not found, timeout, TLS failure, body over the limit.
        case transportFailure(String)
    }

    /// Seconds before a request gives up, connecting included.
    let timeout: TimeInterval
    /// Sent with every request.
    let userAgent: String
    /// Bodies larger than this are refused, so a misconfigured URL cannot fill memory.
    let maximumBodyBytes: Int

    init(timeout: TimeInterval, userAgent: String, maximumBodyBytes: Int = 32 << 20) {
        self.timeout = timeout
        self.userAgent = userAgent
        self.maximumBodyBytes = maximumBodyBytes
    }

    /// A connection for one thread's requests, one after another; it keeps the server's connection open between them.
    func connection() -> Connection { Connection(client: self) }

    /// One libcurl handle: requests made through it reuse its open connections (and TLS sessions).
    final class Connection {
        private let client: HTTPClient
        private var handle: UnsafeMutableRawPointer?
        private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Curl.errorSize)

        fileprivate init(client: HTTPClient) {
            self.client = client
        }

        deinit {
            if let handle, case let .success(api) = Curl.shared { api.easyCleanup(handle) }
            errorBuffer.deallocate()
        }

        /// Fetches `url`, following up to five redirects.
        func get(_ url: String) -> Outcome {
            let api: Curl
            switch Curl.shared {
            case let .success(loaded): api = loaded
            case let .failure(failure): return .transportFailure(failure.reason)
            }
            if handle == nil { handle = api.easyInit() }
            guard let handle else { return .transportFailure("libcurl could not start a request") }
            let limit = client.maximumBodyBytes
            let body = Body(limit: limit)
            errorBuffer[0] = 0
            let milliseconds = max(1, Int(client.timeout * 1000))
            let code: Int32 = url.withCString { urlString in
                client.userAgent.withCString { agent in
                    let options: [(Int32, Int)] = [(Curl.optionNoSignal, 1), (Curl.optionFollowLocation, 1), (Curl.optionMaxRedirects, 5),
                                                   (Curl.optionTimeoutMS, milliseconds), (Curl.optionConnectTimeoutMS, milliseconds)]
                    for (option, value) in options {
                        _ = declutter_curl_setopt_long(api.setopt, handle, option, value)
                    }
                    _ = declutter_curl_setopt_pointer(api.setopt, handle, Curl.optionURL, urlString)
                    _ = declutter_curl_setopt_pointer(api.setopt, handle, Curl.optionUserAgent, agent)
                    _ = declutter_curl_setopt_pointer(api.setopt, handle, Curl.optionErrorBuffer, errorBuffer)
                    _ = declutter_curl_setopt_pointer(api.setopt, handle, Curl.optionWriteData, Unmanaged.passUnretained(body).toOpaque())
                    _ = declutter_curl_setopt_write(api.setopt, handle, Curl.optionWriteFunction, { data, size, count, context in
                        guard let data, let context else { return 0 }
                        let body = Unmanaged<Body>.fromOpaque(context).takeUnretainedValue()
                        let bytes = size * count
                        // Returning fewer bytes than given makes libcurl stop with a write error.
                        guard body.data.count + bytes <= body.limit else { body.overflowed = true; return 0 }
                        body.data.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: bytes)
                        return bytes
                    })
                    return api.easyPerform(handle)
                }
            }
            guard code == 0 else {
                if body.overflowed { return .transportFailure("the answer is larger than \(limit) bytes") }
                let detail = String(cString: errorBuffer)
                return .transportFailure(detail.isEmpty ? String(cString: api.easyStrerror(code)) : detail)
            }
            var status = 0
            _ = declutter_curl_getinfo_long(api.getinfo, handle, Curl.infoResponseCode, &status)
            return .answer(status: status, body: body.data)
        }
    }

    /// The body as it arrives; a class so the write callback can reach it through one pointer.
    private final class Body {
        var data = Data()
        let limit: Int
        var overflowed = false
        init(limit: Int) { self.limit = limit }
    }
}

/// The libcurl functions used, looked up once per process.
private struct Curl: @unchecked Sendable {
    let easyInit: @convention(c) () -> UnsafeMutableRawPointer?
    let easyPerform: @convention(c) (UnsafeMutableRawPointer?) -> Int32
    let easyCleanup: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let easyStrerror: @convention(c) (Int32) -> UnsafePointer<CChar>
    /// `curl_easy_setopt` and `curl_easy_getinfo`, variadic: called through the trampolines in `curl.h`.
    let setopt: UnsafeMutableRawPointer
    let getinfo: UnsafeMutableRawPointer

    // Option and info numbers from curl.h; libcurl keeps them stable across versions.
    static let optionWriteData: Int32 = 10_001
    static let optionURL: Int32 = 10_002
    static let optionErrorBuffer: Int32 = 10_010
    static let optionWriteFunction: Int32 = 20_011
    static let optionUserAgent: Int32 = 10_018
    static let optionFollowLocation: Int32 = 52
    static let optionMaxRedirects: Int32 = 68
    static let optionNoSignal: Int32 = 99
    static let optionTimeoutMS: Int32 = 155
    static let optionConnectTimeoutMS: Int32 = 156
    static let infoResponseCode: Int32 = 0x20_0000 + 2
    /// CURL_ERROR_SIZE.
    static let errorSize = 256

    /// libcurl opened and initialised, or why it could not be.
    static let shared: Result<Curl, LoadFailure> = load()

    /// Why libcurl is unavailable, as a message for the user.
    struct LoadFailure: Error {
        let reason: String
    }

    private static func load() -> Result<Curl, LoadFailure> {
        #if canImport(Darwin)
        let names = ["libcurl.4.dylib", "libcurl.dylib"]
        #else
        let names = ["libcurl.so.4", "libcurl-gnutls.so.4", "libcurl.so"]
        #endif
        guard let library = names.lazy.compactMap({ dlopen($0, RTLD_NOW | RTLD_LOCAL) }).first else {
            return .failure(LoadFailure(reason: "HTTP tiles need libcurl, which is not installed (Debian: apt-get install libcurl4)"))
        }
        func symbol<T>(_ name: String, as type: T.Type) -> T? {
            dlsym(library, name).map { unsafeBitCast($0, to: type) }
        }
        typealias GlobalInit = @convention(c) (Int) -> Int32
        guard let globalInit = symbol("curl_global_init", as: GlobalInit.self),
              let easyInit = symbol("curl_easy_init", as: (@convention(c) () -> UnsafeMutableRawPointer?).self),
              let easyPerform = symbol("curl_easy_perform", as: (@convention(c) (UnsafeMutableRawPointer?) -> Int32).self),
              let easyCleanup = symbol("curl_easy_cleanup", as: (@convention(c) (UnsafeMutableRawPointer?) -> Void).self),
              let easyStrerror = symbol("curl_easy_strerror", as: (@convention(c) (Int32) -> UnsafePointer<CChar>).self),
              let setopt = dlsym(library, "curl_easy_setopt"), let getinfo = dlsym(library, "curl_easy_getinfo") else {
            return .failure(LoadFailure(reason: "the libcurl found lacks the functions HTTP tiles need"))
        }
        // CURL_GLOBAL_DEFAULT (SSL and Win32 socket set-up), once, before any handle exists.
        guard globalInit(3) == 0 else { return .failure(LoadFailure(reason: "libcurl could not initialise")) }
        return .success(Curl(easyInit: easyInit, easyPerform: easyPerform, easyCleanup: easyCleanup, easyStrerror: easyStrerror,
                             setopt: setopt, getinfo: getinfo))
    }
}
