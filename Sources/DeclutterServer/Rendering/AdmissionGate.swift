import Foundation
import Synchronization

/// A work class's door: how many of its requests may be in progress at once, checked first thing — before the
/// request's URL or body is parsed — so that refusing under overload costs next to nothing and leaves the cores to the
/// requests already let in.
final class AdmissionGate: Sendable {
    /// The class's name in metrics: `maps`, `fetch`, `tiles`.
    let name: String
    /// Requests in progress at most.
    let capacity: Int
    /// What the class's requests are, in the 503's message.
    let noun: String
    private let inProgress = Atomic<Int>(0)
    private let refusals = Atomic<Int>(0)

    /// A gate letting `capacity` requests (at least 1) in at once.
    init(name: String, capacity: Int, noun: String) {
        self.name = name
        self.capacity = max(1, capacity)
        self.noun = noun
    }

    /// Runs `body` as one of the requests in progress, or refuses at once when the class is full.
    ///
    /// - Throws: ``ServerError`` 503 with `Retry-After: 1` when full; what `body` throws.
    func admitted<Value>(_ body: () async throws -> Value) async throws -> Value {
        guard enter() else {
            refusals.add(1, ordering: .relaxed)
            throw ServerError(.serviceUnavailable, field: "server", "the server has \(capacity) \(noun) in progress, its most; try again shortly",
                              retryAfter: 1)
        }
        defer { inProgress.subtract(1, ordering: .relaxed) }
        return try await body()
    }

    /// Takes a place when one is free.
    private func enter() -> Bool {
        var current = inProgress.load(ordering: .relaxed)
        while current < capacity {
            let (exchanged, original) = inProgress.compareExchange(expected: current, desired: current + 1, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Requests in progress now, and requests refused since the server started.
    var load: (inProgress: Int, refused: Int) {
        (inProgress.load(ordering: .relaxed), refusals.load(ordering: .relaxed))
    }
}
