import CCurl
import DeclutterSupport
import Foundation

/// Blocking HTTP(S) GET requests through libcurl, which is opened on first use.
///
/// Linking FoundationNetworking would load libcurl with its TLS, Kerberos and LDAP libraries into every process,
/// about 15 ms of each run's start, although only maps over HTTP tiles need them; opening libcurl on demand keeps
/// that cost to the runs that fetch. One client serves any number of threads, each through its own ``Connection``.
final class HTTPClient: Sendable {
    /// A request's outcome: the status and body of an answer, or why there was none.
    enum Outcome: Sendable {
        /// The server answered; `retryAfter` is its `Retry-After` in seconds from now, when it sent one.
        case answer(status: Int, body: Data, retryAfter: TimeInterval?)
        /// The answer is larger than ``HTTPClient/maximumBodyBytes``: refused from its `Content-Length` before it was
        /// downloaded, or cut off where it passed the limit.
        case tooLarge(limit: Int)
        /// No answer: connection refused, name not found, timeout, TLS failure.
        case transportFailure(String)
    }

    /// Seconds before a request gives up, connecting included, unless the request asks for less.
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
        private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))

        fileprivate init(client: HTTPClient) {
            self.client = client
        }

        deinit {
            if let handle, case let .success(api) = Curl.shared { api.easyCleanup(handle) }
            errorBuffer.deallocate()
        }

        /// Fetches `url`, following up to five redirects, giving up after `timeout` seconds (default: the client's).
        func get(_ url: String, timeout: TimeInterval? = nil) -> Outcome {
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
            let milliseconds = max(1, Int(min(timeout ?? client.timeout, client.timeout) * 1000))
            let code: CURLcode = url.withCString { urlString in
                client.userAgent.withCString { agent in
                    // MAXFILESIZE refuses an answer whose Content-Length is over the limit before its body is read.
                    let options: [(CURLoption, Int)] = [
                        (CURLOPT_NOSIGNAL, 1), (CURLOPT_FOLLOWLOCATION, 1), (CURLOPT_MAXREDIRS, 5),
                        (CURLOPT_TIMEOUT_MS, milliseconds), (CURLOPT_CONNECTTIMEOUT_MS, milliseconds),
                        (CURLOPT_MAXFILESIZE, limit),
                    ]
                    for (option, value) in options {
                        _ = declutter_curl_setopt_long(api.setopt, handle, option, value)
                    }
                    _ = declutter_curl_setopt_pointer(api.setopt, handle, CURLOPT_URL, urlString)
                    _ = declutter_curl_setopt_pointer(api.setopt, handle, CURLOPT_USERAGENT, agent)
                    _ = declutter_curl_setopt_pointer(api.setopt, handle, CURLOPT_ERRORBUFFER, errorBuffer)
                    _ = declutter_curl_setopt_pointer(
                        api.setopt, handle, CURLOPT_WRITEDATA, Unmanaged.passUnretained(body).toOpaque())
                    _ = declutter_curl_setopt_write(
                        api.setopt, handle, CURLOPT_WRITEFUNCTION,
                        { data, size, count, context in
                            guard let data, let context else { return 0 }
                            let body = Unmanaged<Body>.fromOpaque(context).takeUnretainedValue()
                            let bytes = size * count
                            // Returning fewer bytes than given makes libcurl stop with a write error.
                            guard body.data.count + bytes <= body.limit else {
                                body.overflowed = true
                                return 0
                            }
                            body.data.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: bytes)
                            return bytes
                        })
                    _ = declutter_curl_setopt_pointer(
                        api.setopt, handle, CURLOPT_HEADERDATA, Unmanaged.passUnretained(body).toOpaque())
                    _ = declutter_curl_setopt_write(
                        api.setopt, handle, CURLOPT_HEADERFUNCTION,
                        { data, size, count, context in
                            guard let data, let context else { return 0 }
                            let body = Unmanaged<Body>.fromOpaque(context).takeUnretainedValue()
                            let line = String(
                                decoding: UnsafeRawBufferPointer(start: data, count: size * count), as: UTF8.self)
                            // Each answer of a redirect chain starts with its status line; only the last one's header
                            // counts.
                            if line.hasPrefix("HTTP/") { body.retryAfter = nil }
                            if let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == "retry-after" {
                                body.retryAfter = line[line.index(after: colon)...].trimmingCharacters(
                                    in: .whitespacesAndNewlines)
                            }
                            return size * count
                        })
                    return api.easyPerform(handle)
                }
            }
            guard code == CURLE_OK else {
                if body.overflowed || code == CURLE_FILESIZE_EXCEEDED { return .tooLarge(limit: limit) }
                let detail = String(cString: errorBuffer)
                return .transportFailure(
                    detail.isEmpty
                        ? api.easyStrerror(code).map { String(cString: $0) } ?? "libcurl error \(code.rawValue)"
                        : detail)
            }
            var status = 0
            _ = declutter_curl_getinfo_long(api.getinfo, handle, CURLINFO_RESPONSE_CODE, &status)
            return .answer(
                status: status, body: body.data,
                retryAfter: body.retryAfter.flatMap { HTTPClient.seconds(retryAfter: $0) })
        }
    }

    /// A `Retry-After` value in seconds from `now`: delay-seconds, or an HTTP date (RFC 9110); nil when it is neither.
    static func seconds(retryAfter value: String, now: Date = Date()) -> TimeInterval? {
        if !value.isEmpty, value.allSatisfy(\.isASCII), value.allSatisfy(\.isNumber) {
            return TimeInterval(value) ?? .infinity
        }
        return HTTPDate.formatter().date(from: value).map { max(0, $0.timeIntervalSince(now)) }
    }

    /// The body as it arrives; a class so the write callback can reach it through one pointer.
    private final class Body {
        var data = Data()
        let limit: Int
        var overflowed = false
        /// The `Retry-After` header's value, when the answer has one.
        var retryAfter: String?
        init(limit: Int) { self.limit = limit }
    }
}

/// The libcurl functions used, looked up once per process; their types are those of `<curl/curl.h>`.
///
/// `@unchecked`: the symbols of a loaded library are immutable addresses, callable from any thread.
private struct Curl: @unchecked Sendable {
    let easyInit: @convention(c) () -> UnsafeMutableRawPointer?
    let easyPerform: @convention(c) (UnsafeMutableRawPointer?) -> CURLcode
    let easyCleanup: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let easyStrerror: @convention(c) (CURLcode) -> UnsafePointer<CChar>?
    /// `curl_easy_setopt` and `curl_easy_getinfo`, variadic: called through the trampolines in CCurl's shim.
    let setopt: UnsafeMutableRawPointer
    let getinfo: UnsafeMutableRawPointer

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
            return .failure(
                LoadFailure(
                    reason: "HTTP tiles need libcurl, which is not installed (Debian: apt-get install libcurl4)"))
        }
        func symbol<T>(_ name: String, as type: T.Type) -> T? {
            dlsym(library, name).map { unsafeBitCast($0, to: type) }
        }
        typealias GlobalInit = @convention(c) (Int) -> CURLcode
        guard let globalInit = symbol("curl_global_init", as: GlobalInit.self),
            let easyInit = symbol("curl_easy_init", as: (@convention(c) () -> UnsafeMutableRawPointer?).self),
            let easyPerform = symbol(
                "curl_easy_perform", as: (@convention(c) (UnsafeMutableRawPointer?) -> CURLcode).self),
            let easyCleanup = symbol("curl_easy_cleanup", as: (@convention(c) (UnsafeMutableRawPointer?) -> Void).self),
            let easyStrerror = symbol(
                "curl_easy_strerror", as: (@convention(c) (CURLcode) -> UnsafePointer<CChar>?).self),
            let setopt = dlsym(library, "curl_easy_setopt"), let getinfo = dlsym(library, "curl_easy_getinfo")
        else {
            return .failure(LoadFailure(reason: "the libcurl found lacks the functions HTTP tiles need"))
        }
        // SSL (and on Windows socket) set-up, once, before any handle exists.
        guard globalInit(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK else {
            return .failure(LoadFailure(reason: "libcurl could not initialise"))
        }
        return .success(
            Curl(
                easyInit: easyInit, easyPerform: easyPerform, easyCleanup: easyCleanup, easyStrerror: easyStrerror,
                setopt: setopt, getinfo: getinfo))
    }
}
