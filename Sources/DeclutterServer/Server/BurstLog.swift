import Foundation
import Logging
import Synchronization

/// Logs the first of a burst of like events and counts the rest: a failing tile server or a full render queue meets
/// every request, and a line per request would flood the log (and cost as much as the refusals themselves). A burst
/// ends after ``quietSeconds`` without an event; the first event after it is logged again, with how many the last
/// burst held.
final class BurstLog: Sendable {
    /// Seconds without an event that end a burst.
    let quietSeconds: Double
    private let state = Mutex<(last: ContinuousClock.Instant?, count: Int)>((nil, 0))

    /// A log whose bursts end after `quietSeconds` of quiet.
    init(quietSeconds: Double = 10) {
        self.quietSeconds = quietSeconds
    }

    /// Whether an event now starts a burst (and with how many events the last one ended); counts it either way.
    func record(now: ContinuousClock.Instant = .now) -> (starts: Bool, previous: Int) {
        state.withLock { state in
            defer { state.last = now }
            if let last = state.last, now - last < .milliseconds(Int64(quietSeconds * 1000)) {
                state.count += 1
                return (false, 0)
            }
            defer { state.count = 1 }
            return (true, state.last == nil ? 0 : state.count)
        }
    }

    /// Logs `message` at `level` when the event starts a burst, with the last burst's count; counts it otherwise.
    func log(
        _ message: @autoclosure () -> String, level: Logger.Level, metadata: Logger.Metadata = [:], to logger: Logger
    ) {
        let (starts, previous) = record()
        guard starts else { return }
        var metadata = metadata
        if previous > 0 { metadata["previous_burst"] = .stringConvertible(previous) }
        logger.log(
            level: level,
            "\(message()) (further ones are counted, not logged, until \(quietSeconds.messageText) s pass without one)",
            metadata: metadata)
    }
}
