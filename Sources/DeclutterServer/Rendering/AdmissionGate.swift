import Foundation
import Synchronization

/// A work class's door: how many of its requests may be in progress at once, checked first thing — before the
/// request's URL or body is parsed.
///
/// A request that finds the class full waits for a place, first come first served, for at most ``waitSeconds``,
/// holding no thread (its connection simply sits), and is refused 503 only then. Refusing at once looked cheap, but a
/// client that is refused asks again at once: at 256 connections the refusals came by the ten thousand a second and
/// took the cores from the maps let in (goodput fell to 40 % of what 8 connections got). A refusal after a wait costs
/// the same few microseconds, a few times a second per connection instead.
final class AdmissionGate: Sendable {
    /// The class's name in metrics: `maps`.
    let name: String
    /// Requests in progress at most.
    let capacity: Int
    /// What the class's requests are, in the 503's message.
    let noun: String
    /// Seconds a request waits for a place before it is refused.
    let waitSeconds: Double
    /// Requests that may wait at once; past them a request is refused at once.
    let maximumWaiting: Int

    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var inProgress = 0
        var refused = 0
        var waiting: [Waiter] = []
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())
    /// Runs when a request has found the class full and is about to be listed as waiting; for tests, to give a place
    /// back in between.
    let beforeWaiting: (@Sendable () -> Void)?

    /// A gate letting `capacity` requests (at least 1) in at once, the rest waiting up to `waitSeconds` (at most
    /// `maximumWaiting` of them).
    init(
        name: String, capacity: Int, noun: String, waitSeconds: Double = 0.5, maximumWaiting: Int = 4096,
        beforeWaiting: (@Sendable () -> Void)? = nil
    ) {
        self.beforeWaiting = beforeWaiting
        self.name = name
        self.capacity = max(1, capacity)
        self.noun = noun
        self.waitSeconds = max(0, waitSeconds)
        self.maximumWaiting = max(0, maximumWaiting)
    }

    /// Runs `body` as one of the requests in progress, once there is a place for it.
    ///
    /// - Throws: ``ServerError`` 503 with `Retry-After: 1` when no place came within ``waitSeconds``; what `body`
    ///   throws.
    func admitted<Value>(_ body: () async throws -> Value) async throws -> Value {
        try await enter()
        defer { leave() }
        return try await body()
    }

    /// Takes a place, waiting for one when the class is full.
    func enter() async throws {
        enum Entry {
            case admitted, refused
            case wait(UInt64)
        }
        let entry: Entry = state.withLock { state in
            if state.inProgress < capacity {
                state.inProgress += 1
                return .admitted
            }
            guard state.waiting.count < maximumWaiting, waitSeconds > 0 else {
                state.refused += 1
                return .refused
            }
            state.nextID += 1
            return .wait(state.nextID)
        }
        switch entry {
        case .admitted: return
        case .refused: throw refusal
        case let .wait(id):
            beforeWaiting?()
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // A place may have been given back since the class was found full, before this waiter was listed
                // (`leave` then found no one to hand it to): take it now, or the request would wait out its time
                // and be refused beside a free place.
                let placeFreed = state.withLock { state in
                    guard state.inProgress >= capacity else {
                        state.inProgress += 1
                        return true
                    }
                    state.waiting.append(Waiter(id: id, continuation: continuation))
                    return false
                }
                if placeFreed {
                    continuation.resume()
                    return
                }
                // The wait's end: whoever takes the waiter from the list (a place freed, or this) resumes it.
                Task { [self] in
                    try? await Task.sleep(for: .milliseconds(Int64(waitSeconds * 1000)))
                    let expired: Waiter? = state.withLock { state in
                        guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                        state.refused += 1
                        return state.waiting.remove(at: index)
                    }
                    expired?.continuation.resume(throwing: refusal)
                }
            }
        }
    }

    /// Gives a place back, or hands it to the longest-waiting request.
    func leave() {
        let next: Waiter? = state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.inProgress -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.continuation.resume()
    }

    /// The 503 a request gets when no place came.
    private var refusal: ServerError {
        ServerError(
            .serviceUnavailable, field: "server",
            "the server has \(capacity) \(noun) in progress, its most, and none finished within \(waitSeconds.messageText) s; try again shortly",
            retryAfter: 1)
    }

    /// Requests in progress now, and requests refused since the server started.
    var load: (inProgress: Int, refused: Int) {
        state.withLock { ($0.inProgress, $0.refused) }
    }
}
