import DeclutterGeometry
import DeclutterPNG
import DeclutterSupport
import Foundation
import Synchronization

/// Tiles fetched over HTTP(S) from a URL template, in parallel, with timeouts, retries, one deadline per map and an
/// on-disk cache.
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
    /// Seconds one map's fetching may take in all, retries and waits included; tiles not had by then are failures.
    public let deadline: TimeInterval
    /// Further attempts after a failed request (timeouts, connection errors, 5xx and 429 answers).
    public let retries: Int
    /// The longest `Retry-After` of a 429 or 503 answer that is waited for; a longer one ends the map's requests.
    public let maximumRetryAfter: TimeInterval
    /// The largest tile downloaded, in bytes; a larger answer is a failure, remembered in the cache.
    public let maximumTileBytes: Int
    /// The most bytes of tile images one map holds before drawing them, cached ones included; tiles past it are
    /// failures. Without it a map of `--max-tiles` tiles at ``maximumTileBytes`` each could hold gigabytes.
    public let maximumMapBytes: Int
    /// Whether `{r}` reads `@2x`.
    public let retina: Bool
    /// Requests at once.
    public let concurrency: Int
    private let client: HTTPClient
    public var name: String { template }

    /// Tiles taken from the cache since the source was made, for a server's metrics.
    public var cacheHits: Int { hitCount.load(ordering: .relaxed) }
    /// Tiles asked of the server since the source was made (not in the cache, or stale).
    public var cacheMisses: Int { missCount.load(ordering: .relaxed) }
    private let hitCount = Atomic<Int>(0), missCount = Atomic<Int>(0)

    /// Creates a source; `cacheDirectory` defaults to `$XDG_CACHE_HOME/declutter/tiles` (or `~/.cache/…`), one folder
    /// per template.
    ///
    /// - Throws: ``TileError/invalidSource(source:reason:)`` for a template that is not an http(s) URL with `{z}`,
    /// `{x}`, `{y}`.
    public init(
        template: String, tilePixelSize: Int = 256, zoomRange: ClosedRange<Int> = 0...19, attribution: String? = nil,
        cacheDirectory: URL? = HTTPTileSource.defaultCacheDirectory, maxAge: TimeInterval = 7 * 86_400,
        timeout: TimeInterval = 10, deadline: TimeInterval = HTTPTileSource.defaultDeadline, retries: Int = 2,
        maximumRetryAfter: TimeInterval = 5, maximumTileBytes: Int = 32 << 20, maximumMapBytes: Int = 256 << 20,
        concurrency: Int = 8, retina: Bool = false
    ) throws {
        guard template.hasPrefix("http://") || template.hasPrefix("https://"),
            ["{z}", "{x}", "{y}"].allSatisfy({ template.contains($0) }) || template.contains("{-y}"),
            URL(string: fillTemplate(template, TileKey(z: 0, x: 0, y: 0), retina: retina)) != nil
        else {
            throw TileError.invalidSource(
                source: template, reason: "expected an http(s) URL template with {z}, {x} and {y}")
        }
        self.template = template
        self.tilePixelSize = tilePixelSize * (retina && template.contains("{r}") ? 2 : 1)
        self.zoomRange = zoomRange
        self.attribution = attribution
        self.cacheDirectory = cacheDirectory?.appendingPathComponent(Self.folderName(for: template), isDirectory: true)
        self.maxAge = maxAge
        self.timeout = timeout
        self.deadline = deadline
        self.retries = max(0, retries)
        self.maximumRetryAfter = maximumRetryAfter
        self.maximumTileBytes = max(1, maximumTileBytes)
        self.maximumMapBytes = max(1, maximumMapBytes)
        self.retina = retina
        self.concurrency = max(1, concurrency)
        client = HTTPClient(
            timeout: timeout, userAgent: "Declutter static maps (https://github.com/declutter)",
            maximumBodyBytes: self.maximumTileBytes)
    }

    /// 30 s: three request timeouts, so a slow first answer and a retry fit; 256 tiles of 30 kB (7.7 MB) arrive in it
    /// down to about 2 Mbit/s; and a map that cannot be had fails in half a minute, not many.
    public static let defaultDeadline: TimeInterval = 30

    /// `$XDG_CACHE_HOME/declutter/tiles`, or `~/.cache/declutter/tiles`.
    public static var defaultCacheDirectory: URL {
        if let base = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"], !base.isEmpty {
            return URL(fileURLWithPath: base).appendingPathComponent("declutter/tiles", isDirectory: true)
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(
            ".cache/declutter/tiles", isDirectory: true)
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

    /// Fetches the tiles of one map within ``deadline``; tiles not had by then are failures that say so.
    ///
    /// - Throws: ``TileError/unreachable(source:reason:)`` when nothing is cached and the server answered no request:
    ///   decided once the first ``concurrency`` requests (fewer for a smaller map) have all failed outright, without
    ///   asking for the other tiles.
    public func fetch(_ keys: [TileKey]) throws -> [TileKey: Result<Data, TileFailure>] {
        var result: [TileKey: Result<Data, TileFailure>] = [:]
        var wanted: [TileKey] = []
        for key in keys {
            if let file = cacheFile(key), fresh(Self.tooLargeMarker(file)) != nil {
                result[key] = .failure(
                    TileFailure(
                        Self.tooLargeReason(fillTemplate(template, key, retina: retina), limit: maximumTileBytes)
                            + " (remembered from an earlier fetch)"))
            } else if let file = cacheFile(key), let data = fresh(file) {
                result[key] = .success(data)
            } else {
                wanted.append(key)
            }
        }
        hitCount.add(keys.count - wanted.count, ordering: .relaxed)
        missCount.add(wanted.count, ordering: .relaxed)
        guard !wanted.isEmpty else { return result }
        let cachedBytes = result.values.reduce(0) { $0 + ((try? $1.get())?.count ?? 0) }
        let run = HTTPFetchRun(
            count: wanted.count, probe: min(concurrency, wanted.count), deadline: deadline,
            budget: (held: cachedBytes, limit: maximumMapBytes))
        // Threads of their own take the wanted tiles in turn: requests wait on the network, so there may be more of
        // them than cores (Dispatch's concurrentPerform would run only one per core).
        let finished = DispatchSemaphore(value: 0), pending = wanted
        let workers = min(concurrency, pending.count)
        for _ in 0..<workers {
            Thread { [self] in
                let connection = client.connection()
                while let index = run.take() {
                    let key = pending[index]
                    let (outcome, kind) = request(
                        fillTemplate(template, key, retina: retina), through: connection, run: run)
                    run.record(key, outcome, kind)
                }
                finished.signal()
            }.start()
        }
        for _ in 0..<workers { finished.wait() }
        let ended = run.ended()
        // Unreachable only when nothing at all could be had; with some tiles cached, the rest are warnings.
        if ended.answered == 0, result.isEmpty {
            let reason = ended.firstFailure ?? "no answer within the map's deadline of \(Self.seconds(deadline))"
            throw TileError.unreachable(source: template, reason: ended.stopReason.map { "\(reason); \($0)" } ?? reason)
        }
        let unfetched = TileFailure(
            ended.stopReason.map { "not fetched: \($0)" }
                ?? "not fetched within the map's deadline of \(Self.seconds(deadline))")
        for key in wanted {
            guard let outcome = ended.answers[key] else {
                result[key] = .failure(unfetched)
                continue
            }
            result[key] = outcome.result
            guard let file = cacheFile(key) else { continue }
            // A cache that cannot be written only costs a later fetch.
            switch outcome.kind {
            case .tile:
                guard case let .success(data) = outcome.result else { break }
                try? FileManager.default.createDirectory(
                    at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try? FileSystem.writeAtomically(data, to: file)
            case .tooLarge:
                try? FileManager.default.createDirectory(
                    at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try? FileSystem.writeAtomically(Data(), to: Self.tooLargeMarker(file))
            default: break
            }
        }
        return result
    }

    /// Beside a tile's cache file, the mark that its answer was over the size limit, so it is not downloaded again
    /// until the mark is older than ``maxAge``.
    static func tooLargeMarker(_ file: URL) -> URL { file.deletingPathExtension().appendingPathExtension("too-large") }

    static func tooLargeReason(_ url: String, limit: Int) -> String {
        "the answer for \(url) is larger than \(limit) bytes"
    }

    /// `2 s`, `0.5 s`.
    static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() && value < 1e9 ? "\(Int(value)) s" : "\(value) s"
    }

    /// A cached file younger than ``maxAge``.
    private func fresh(_ file: URL) -> Data? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
            let modified = attributes[.modificationDate] as? Date, Date().timeIntervalSince(modified) < maxAge
        else { return nil }
        return try? Data(contentsOf: file)
    }

    /// One tile's request with its retries, each within the run's deadline.
    ///
    /// A request that fails outright is tried again only once the server has answered another: before, it counts
    /// towards declaring the server unreachable. A 429 or 503 waits for its `Retry-After` when that is short; a long
    /// one ends the run's requests, as the server asks.
    private func request(_ url: String, through connection: HTTPClient.Connection, run: HTTPFetchRun)
        -> (Result<Data, TileFailure>, HTTPFetchRun.Kind)
    {
        var attempt = 0
        while true {
            let remaining = run.remaining
            guard remaining > 0 else { return (.failure(run.deadlineFailure), .unfinished) }
            let outcome = connection.get(url, timeout: remaining)
            var wait: TimeInterval
            switch outcome {
            case let .transportFailure(reason):
                // A request given the rest of the deadline may time out a hair before it: the deadline is the reason.
                guard run.remaining > 0.1 else { return (.failure(run.deadlineFailure), .unfinished) }
                guard attempt < retries, run.serverAnswered else { return (.failure(TileFailure(reason)), .transport) }
                wait = Self.backOff(attempt)
            case let .tooLarge(limit):
                return (.failure(TileFailure(Self.tooLargeReason(url, limit: limit))), .tooLarge)
            case let .answer(status, body, _) where status == 200:
                guard !body.isEmpty else {
                    return (.failure(TileFailure("HTTP 200 for \(url) with no body")), .answered)
                }
                do {
                    // Only the chunks are checked, not the pixels: enough to keep error pages out of the cache.
                    _ = try PNGDecoder.File(body)
                } catch {
                    return (
                        .failure(TileFailure("HTTP 200 for \(url) is not a PNG image (\(body.count) bytes): \(error)")),
                        .answered
                    )
                }
                return (.success(body), .tile)
            case let .answer(status, _, retryAfter) where status >= 500 || status == 429:
                if let retryAfter, retryAfter > min(maximumRetryAfter, run.remaining) {
                    let reason =
                        "HTTP \(status) for \(url) asks to wait \(Self.seconds(retryAfter.rounded(.up))) before more requests"
                    return (
                        .failure(TileFailure(reason)),
                        .stop(reason: "the server asked to wait \(Self.seconds(retryAfter.rounded(.up)))")
                    )
                }
                guard attempt < retries else { return (.failure(TileFailure("HTTP \(status) for \(url)")), .answered) }
                wait = retryAfter ?? Self.backOff(attempt)
            case let .answer(status, _, _):
                return (.failure(TileFailure("HTTP \(status) for \(url)")), .answered)
            }
            if case .answer = outcome { run.noteAnswer() }
            guard wait < run.remaining else { return (.failure(run.deadlineFailure), .unfinished) }
            Thread.sleep(forTimeInterval: wait)
            attempt += 1
        }
    }

    /// A little more each time: 0.25 s, 0.5 s, 1 s.
    private static func backOff(_ attempt: Int) -> TimeInterval { 0.25 * pow(2, Double(attempt)) }
}
