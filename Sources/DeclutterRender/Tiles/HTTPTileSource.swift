import DeclutterCore
import Foundation
import Synchronization

/// Tiles fetched over HTTP(S) from a URL template, in parallel, with timeouts, retries and an on-disk cache.
///
/// ```swift
/// let osm = try HTTPTileSource(template: "https://tile.openstreetmap.org/{z}/{x}/{y}.png",
///                              attribution: "© OpenStreetMap contributors")
/// ```
public final class HTTPTileSource: TileSource, Sendable {
    /// The URL template.
    public let template: String
    public let tilePixelSize: Int
    public let zoomRange: ClosedRange<Int>
    public let attribution: String?
    /// Where fetched tiles are kept; nil caches nothing.
    public let cacheDirectory: URL?
    /// How long a cached tile is used without asking the server again.
    public let maxAge: TimeInterval
    /// Seconds before one request gives up.
    public let timeout: TimeInterval
    /// Further attempts after a failed request (timeouts, connection errors, 5xx and 429 answers).
    public let retries: Int
    /// Whether `{r}` reads `@2x`.
    public let retina: Bool
    /// Requests at once.
    public let concurrency: Int
    private let client: HTTPClient
    public var name: String { template }

    /// Creates a source; `cacheDirectory` defaults to `$XDG_CACHE_HOME/declutter/tiles` (or `~/.cache/…`), one folder per template.
    ///
    /// - Throws: ``TileError/invalidSource(source:reason:)`` for a template that is not an http(s) URL with `{z}`, `{x}`, `{y}`.
    public init(template: String, tilePixelSize: Int = 256, zoomRange: ClosedRange<Int> = 0...19, attribution: String? = nil,
                cacheDirectory: URL? = HTTPTileSource.defaultCacheDirectory, maxAge: TimeInterval = 7 * 86_400,
                timeout: TimeInterval = 10, retries: Int = 2, concurrency: Int = 8, retina: Bool = false) throws {
        guard template.hasPrefix("http://") || template.hasPrefix("https://"),
              ["{z}", "{x}", "{y}"].allSatisfy({ template.contains($0) }) || template.contains("{-y}"),
              URL(string: fillTemplate(template, TileKey(z: 0, x: 0, y: 0), retina: retina)) != nil else {
            throw TileError.invalidSource(source: template, reason: "expected an http(s) URL template with {z}, {x} and {y}")
        }
        self.template = template
        self.tilePixelSize = tilePixelSize * (retina && template.contains("{r}") ? 2 : 1)
        self.zoomRange = zoomRange
        self.attribution = attribution
        self.cacheDirectory = cacheDirectory?.appendingPathComponent(Self.folderName(for: template), isDirectory: true)
        self.maxAge = maxAge
        self.timeout = timeout
        self.retries = max(0, retries)
        self.retina = retina
        self.concurrency = max(1, concurrency)
        client = HTTPClient(timeout: timeout, userAgent: "Declutter static maps (https://github.com/declutter)")
    }

    /// `$XDG_CACHE_HOME/declutter/tiles`, or `~/.cache/declutter/tiles`.
    public static var defaultCacheDirectory: URL {
        if let base = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"], !base.isEmpty {
            return URL(fileURLWithPath: base).appendingPathComponent("declutter/tiles", isDirectory: true)
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/declutter/tiles", isDirectory: true)
    }

    /// A folder name that differs per template: its readable host and a hash of the whole template.
    static func folderName(for template: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in template.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let host = URL(string: fillTemplate(template, TileKey(z: 0, x: 0, y: 0), retina: false))?.host ?? "tiles"
        return host.filter { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" } + "-" + String(hash, radix: 16)
    }

    /// The cache file of a tile.
    func cacheFile(_ key: TileKey) -> URL? {
        cacheDirectory?.appendingPathComponent("\(key.z)/\(key.x)/\(key.y)\(retina ? "@2x" : "").tile")
    }

    public func fetch(_ keys: [TileKey]) throws -> [TileKey: Result<Data, TileFailure>] {
        var result: [TileKey: Result<Data, TileFailure>] = [:]
        var wanted: [TileKey] = []
        for key in keys {
            if let file = cacheFile(key), let data = fresh(file) {
                result[key] = .success(data)
            } else {
                wanted.append(key)
            }
        }
        guard !wanted.isEmpty else { return result }
        let collected = Collected()
        // Threads of their own take the wanted tiles in turn: requests wait on the network, so there may be more of
        // them than cores (Dispatch's concurrentPerform would run only one per core).
        let next = Collected.Counter(), finished = DispatchSemaphore(value: 0), pending = wanted
        let workers = min(concurrency, pending.count)
        for _ in 0..<workers {
            Thread { [self] in
                let connection = client.connection()
                while let index = next.take(below: pending.count) {
                    let key = pending[index]
                    let (outcome, transport) = request(fillTemplate(template, key, retina: retina), through: connection)
                    collected.set(key, outcome, transport: transport)
                }
                finished.signal()
            }.start()
        }
        for _ in 0..<workers { finished.wait() }
        let (answers, transportFailures) = collected.snapshot()
        // Unreachable only when nothing at all could be had; with some tiles cached, the rest are warnings.
        if transportFailures == wanted.count, result.isEmpty, case let .failure(failure)? = answers[wanted[0]] {
            throw TileError.unreachable(source: template, reason: failure.reason)
        }
        for (key, outcome) in answers {
            result[key] = outcome
            if case let .success(data) = outcome, let file = cacheFile(key) {
                // A cache that cannot be written only costs a later fetch.
                try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try? FileSystem.writeAtomically(data, to: file)
            }
        }
        return result
    }

    /// A cached tile younger than ``maxAge``.
    private func fresh(_ file: URL) -> Data? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
              let modified = attributes[.modificationDate] as? Date, Date().timeIntervalSince(modified) < maxAge else { return nil }
        return try? Data(contentsOf: file)
    }

    /// One request with retries; `transport` tells a connection failure from an HTTP answer.
    private func request(_ url: String, through connection: HTTPClient.Connection) -> (Result<Data, TileFailure>, transport: Bool) {
        var attempt = 0
        while true {
            let outcome = connection.get(url)
            let retryable: Bool
            switch outcome {
            case .transportFailure: retryable = true
            case let .answer(status, _): retryable = status >= 500 || status == 429
            }
            if retryable && attempt < retries {
                // Back off a little more each time: 0.25 s, 0.5 s, 1 s.
                Thread.sleep(forTimeInterval: 0.25 * pow(2, Double(attempt)))
                attempt += 1
                continue
            }
            switch outcome {
            case let .transportFailure(reason):
                return (.failure(TileFailure(reason)), true)
            case let .answer(status, body) where status == 200 && !body.isEmpty:
                return (.success(body), false)
            case let .answer(status, _):
                return (.failure(TileFailure("HTTP \(status) for \(url)")), false)
            }
        }
    }

    /// Answers gathered from the fetching threads.
    private final class Collected: Sendable {
        private let state = Mutex<(answers: [TileKey: Result<Data, TileFailure>], transportFailures: Int)>(([:], 0))

        func set(_ key: TileKey, _ outcome: Result<Data, TileFailure>, transport: Bool) {
            state.withLock { state in
                state.answers[key] = outcome
                if transport { state.transportFailures += 1 }
            }
        }

        func snapshot() -> ([TileKey: Result<Data, TileFailure>], Int) {
            state.withLock { ($0.answers, $0.transportFailures) }
        }

        /// Hands out indices 0, 1, 2… to the fetching threads.
        final class Counter: Sendable {
            private let next = Mutex(0)

            /// The next index, or nil once `count` have been taken.
            func take(below count: Int) -> Int? {
                next.withLock { next in
                    guard next < count else { return nil }
                    next += 1
                    return next - 1
                }
            }
        }
    }
}
