import Foundation
import Synchronization

/// A cache bounded by the bytes of what it holds, not by a count: least recently used entries go first once the total
/// passes the budget, so a long-running server that pans over the whole world keeps a flat footprint.
///
/// ```swift
/// let tiles = ByteLimitedCache<String, Data>(budget: 64 << 20)
/// tiles.insert(data, for: "5/16/11", bytes: data.count)
/// let again = tiles.value(for: "5/16/11")
/// ```
/// Safe to share between threads; each call takes one lock for a few dictionary operations.
public final class ByteLimitedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// The most bytes held; an entry larger than this is not kept at all.
    public let budget: Int

    private struct Entry {
        var value: Value
        var bytes: Int
        /// When it was last used; the order list's older mentions of it are stale.
        var tick: UInt64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        /// Keys in the order they were used, with the tick of that use; a mention whose tick is not the entry's is
        /// skipped when evicting, so a use costs an append rather than a move.
        var order: [(key: Key, tick: UInt64)] = []
        var start = 0
        var tick: UInt64 = 0
        var bytes = 0
        var hits = 0, misses = 0, evictions = 0
    }

    private let state = Mutex(State())

    /// An empty cache holding at most `budget` bytes.
    public init(budget: Int) {
        self.budget = max(0, budget)
    }

    /// The value for `key`, marked as just used; nil when not held.
    public func value(for key: Key) -> Value? {
        state.withLock { state in
            guard var entry = state.entries[key] else {
                state.misses += 1
                return nil
            }
            state.hits += 1
            state.tick += 1
            entry.tick = state.tick
            state.entries[key] = entry
            state.order.append((key, state.tick))
            Self.compact(&state)
            return entry.value
        }
    }

    /// Keeps `value` for `key`, counted as `bytes`, evicting the least recently used entries past the budget.
    public func insert(_ value: Value, for key: Key, bytes: Int) {
        guard bytes <= budget else { return }
        state.withLock { state in
            state.tick += 1
            if let old = state.entries[key] { state.bytes -= old.bytes }
            state.entries[key] = Entry(value: value, bytes: bytes, tick: state.tick)
            state.bytes += bytes
            state.order.append((key, state.tick))
            while state.bytes > budget, state.start < state.order.count {
                let (oldest, tick) = state.order[state.start]
                state.start += 1
                guard let entry = state.entries[oldest], entry.tick == tick else { continue }
                state.entries.removeValue(forKey: oldest)
                state.bytes -= entry.bytes
                state.evictions += 1
            }
            Self.compact(&state)
        }
    }

    /// Drops the order list's used-up front and stale mentions once they outnumber the entries, so that it stays
    /// within a few times the entries' count.
    private static func compact(_ state: inout State) {
        guard state.order.count - state.start > 4 * state.entries.count + 64 else { return }
        let entries = state.entries
        state.order = state.order[state.start...].filter { entries[$0.key]?.tick == $0.tick }
        state.start = 0
    }

    /// Bytes held, entries held, and lookups that found or missed, and entries evicted, since the cache was made.
    public var statistics: (bytes: Int, entries: Int, hits: Int, misses: Int, evictions: Int) {
        state.withLock { ($0.bytes, $0.entries.count, $0.hits, $0.misses, $0.evictions) }
    }
}
