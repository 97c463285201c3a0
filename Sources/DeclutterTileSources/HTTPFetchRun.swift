import DeclutterGeometry
import Foundation

/// One map's fetching from a tile server: hands out the wanted tiles to the fetching threads, gathers their
/// outcomes, and stops handing out at the deadline, once the server is found unreachable, or when it asks to wait.
///
/// Until the server has answered once, only the first `probe` tiles are handed out: if they all fail outright
/// (refused, name not found, timed out), the server is unreachable and no other tile is asked for.
///
/// `@unchecked Sendable`: every stored property but the constants is read and written only with `condition` held.
final class HTTPFetchRun: @unchecked Sendable {
    /// What became of one tile's request.
    enum Kind: Sendable {
        /// A tile image.
        case tile
        /// Some other answer from the server (404, a 503 after the retries, a body that is not an image).
        case answered
        /// An answer over the size limit.
        case tooLarge
        /// No answer: refused, not found, timed out.
        case transport
        /// Cut short by the deadline.
        case unfinished
        /// The server asked for a pause longer than is waited for: no more requests this run.
        case stop(reason: String)
    }

    /// What a run ended with.
    struct Ended {
        /// The tiles asked for, with their outcomes.
        var answers: [TileKey: (result: Result<Data, TileFailure>, kind: Kind)]
        /// Answers of any status the server gave, retried ones included.
        var answered: Int
        /// The reason of the first request that failed outright.
        var firstFailure: String?
        /// Why the run stopped handing out tiles before the deadline, when it did.
        var stopReason: String?
    }

    private let count: Int
    private let probe: Int
    private let end: ContinuousClock.Instant
    private let deadline: TimeInterval
    private let condition = NSCondition()
    private var next = 0
    private var state = Ended(answers: [:], answered: 0)
    private var outright = 0
    /// Bytes of tile images held for the map so far, and the most it may hold.
    private var held: Int
    private let limit: Int

    /// A run over `count` tiles that must end within `deadline` seconds from now, holding at most `budget.limit`
    /// bytes of tiles with the `budget.held` already had.
    init(count: Int, probe: Int, deadline: TimeInterval, budget: (held: Int, limit: Int) = (0, .max)) {
        self.count = count
        held = budget.held
        limit = budget.limit
        self.probe = max(1, probe)
        self.deadline = deadline
        end = .now + .milliseconds(Int64(min(deadline, 1e9) * 1000))
    }

    /// Seconds left before the deadline (0 or less once it has passed).
    var remaining: TimeInterval {
        let left = ContinuousClock.now.duration(to: end).components
        return Double(left.seconds) + Double(left.attoseconds) * 1e-18
    }

    /// The failure of a tile the deadline cut short.
    var deadlineFailure: TileFailure {
        TileFailure("not fetched within the map's deadline of \(HTTPTileSource.seconds(deadline))")
    }

    /// Whether the server has answered any request yet.
    var serverAnswered: Bool {
        condition.lock()
        defer { condition.unlock() }
        return state.answered > 0
    }

    /// The index of the next tile to fetch, or nil when there is none or the run has stopped; waits while the server
    /// has not answered yet and the probe's tiles are all out.
    func take() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            let left = remaining
            guard state.stopReason == nil, next < count, left > 0 else { return nil }
            if next < probe || state.answered > 0 {
                next += 1
                return next - 1
            }
            _ = condition.wait(until: Date(timeIntervalSinceNow: left))
        }
    }

    /// Notes an answer that will be retried, which proves the server is there.
    func noteAnswer() {
        condition.lock()
        defer { condition.unlock() }
        state.answered += 1
        condition.broadcast()
    }

    /// Keeps a tile's outcome.
    func record(_ key: TileKey, _ result: Result<Data, TileFailure>, _ kind: Kind) {
        condition.lock()
        defer { condition.unlock() }
        state.answers[key] = (result, kind)
        if case .tile = kind, case let .success(data) = result {
            if held + data.count > limit {
                let megabytes = limit % (1 << 20) == 0 ? "\(limit >> 20) MB" : "\(limit) bytes"
                state.answers[key] = (
                    .failure(
                        TileFailure("the map's tiles passed \(megabytes) in all; use a smaller map or a higher zoom")),
                    .answered
                )
            } else {
                held += data.count
            }
        }
        switch kind {
        case .tile, .answered, .tooLarge:
            state.answered += 1
        case .transport:
            if state.firstFailure == nil, case let .failure(failure) = result { state.firstFailure = failure.reason }
            outright += 1
            if state.answered == 0, outright >= probe {
                state.stopReason = "the server did not answer the first \(probe) request\(probe == 1 ? "" : "s")"
            }
        case .unfinished:
            break
        case let .stop(reason):
            state.answered += 1
            if state.stopReason == nil { state.stopReason = reason }
        }
        condition.broadcast()
    }

    /// The outcomes, once every fetching thread is done.
    func ended() -> Ended {
        condition.lock()
        defer { condition.unlock() }
        return state
    }
}
