import Foundation
import Synchronization
import Testing

@testable import DeclutterServer

/// The door of a work class: places are handed on, first come first served, and no request is refused while a place
/// is free.
@Suite struct AdmissionGateTests {
    @Test func aWaiterGetsThePlaceGivenBack() async throws {
        let gate = AdmissionGate(name: "maps", capacity: 1, noun: "maps", waitSeconds: 30)
        let release = AsyncStream<Void>.makeStream()
        let holder = Task { try await gate.admitted { for await _ in release.stream { break } } }
        while gate.load.inProgress < 1 { await Task.yield() }
        let waiter = Task { try await gate.admitted { 7 } }
        release.continuation.yield()
        try await holder.value
        #expect(try await waiter.value == 7)
        #expect(gate.load == (inProgress: 0, refused: 0))
    }

    @Test func aPlaceGivenBackWhileARequestDecidesToWaitIsTaken() async throws {
        // The place comes back after the request found the class full and before it is listed: `leave` finds no one
        // to hand it to. The request must take it, not wait out its time and be refused beside it.
        let holder = Holder()
        let gate = AdmissionGate(
            name: "maps", capacity: 1, noun: "maps", waitSeconds: 0.3, beforeWaiting: { holder.gate?.leave() })
        holder.gate = gate
        try await gate.enter()
        #expect(try await gate.admitted { 7 } == 7)
        #expect(gate.load == (inProgress: 0, refused: 0))
    }

    @Test func manyRequestsThroughTwoPlacesAreNeverRefused() async throws {
        // Two thousand at once through two places, each waiting its turn: all answered, never more than two inside.
        // The wait is long, as on a loaded test run the last of them can wait half a minute and more.
        let gate = AdmissionGate(name: "maps", capacity: 2, noun: "maps", waitSeconds: 600)
        let most = InProgress()
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for number in 0..<2_000 {
                group.addTask {
                    try await gate.admitted {
                        most.state.withLock {
                            $0.now += 1
                            $0.most = max($0.most, $0.now)
                        }
                        await Task.yield()
                        most.state.withLock { $0.now -= 1 }
                        return number
                    }
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(results.count == 2_000)
        #expect(Set(results).count == 2_000)
        #expect(most.state.withLock { $0.most } <= 2)
        #expect(gate.load == (inProgress: 0, refused: 0))
    }
}

/// Requests inside the gate now, and the most at once.
private final class InProgress: Sendable {
    let state = Mutex((now: 0, most: 0))
}

/// The gate a test's hook gives a place back to, set once the gate is made.
private final class Holder: @unchecked Sendable {
    var gate: AdmissionGate?
}
