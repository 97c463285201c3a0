import Foundation
import NIOCore
import Synchronization

/// The server's open connections, held below a limit under the process's descriptor limit, so that the server can
/// always accept: a server out of descriptors accepts nothing, `/health` included, until a client lets go.
///
/// At the limit a new connection closes the connection that has waited longest without a request in progress (kept
/// alive between requests, or still sending its head: slow or idle clients, never a request being read or answered);
/// when every connection is working the new one is answered 503 at once and closed.
final class ConnectionRegistry: Sendable {
    /// Connections open at once.
    let limit: Int
    /// Where closings are counted.
    let metrics: ServerMetrics

    private struct Entry {
        var channel: any Channel
        var watch: NIOLoopBound<ConnectionWatch>
        /// Since when the connection has waited with no request in progress; nil while one is.
        var waitingSince: ContinuousClock.Instant?
    }

    private let entries = Mutex<[ObjectIdentifier: Entry]>([:])

    /// A registry of at most `limit` connections (at least 1).
    init(limit: Int, metrics: ServerMetrics) {
        self.limit = max(1, limit)
        self.metrics = metrics
    }

    /// Connections open now.
    var count: Int { entries.withLock { $0.count } }

    /// Takes in a new connection, making room by closing the longest-waiting idle one when at the limit.
    ///
    /// - Returns: false when every connection is working: the new one is to be refused.
    func admit(_ channel: any Channel, watch: ConnectionWatch) -> Bool {
        let id = ObjectIdentifier(channel)
        let entry = Entry(
            channel: channel, watch: NIOLoopBound(watch, eventLoop: channel.eventLoop), waitingSince: .now)
        let (admitted, victim): (Bool, Entry?) = entries.withLock { entries in
            var victim: (id: ObjectIdentifier, entry: Entry)?
            if entries.count >= limit {
                for (key, candidate) in entries {
                    guard let since = candidate.waitingSince else { continue }
                    if let oldest = victim?.entry.waitingSince, oldest <= since { continue }
                    victim = (key, candidate)
                }
                guard let victim else { return (false, nil) }
                entries.removeValue(forKey: victim.id)
            }
            entries[id] = entry
            return (true, victim?.entry)
        }
        if let victim {
            metrics.recordConnectionClosed(reason: "evicted")
            victim.channel.eventLoop.execute { victim.watch.value.evict() }
        }
        if !admitted { metrics.recordConnectionClosed(reason: "refused") }
        return admitted
    }

    /// Notes that `channel` has had no request in progress since `since`, or (nil) that one is in progress.
    func update(_ channel: any Channel, waitingSince since: ContinuousClock.Instant?) {
        entries.withLock { entries in entries[ObjectIdentifier(channel)]?.waitingSince = since }
    }

    /// Forgets a closed connection.
    func remove(_ channel: any Channel) {
        _ = entries.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }
}
