import Foundation

/// Calls `body` for each index in `0..<count` on every core and returns the results in index order.
///
/// Each iteration writes only its own slot, so no lock is needed; `body` must be safe to run concurrently
/// (the callers decode separate tiles, deflate separate rows or cluster separate bands of points).
///
/// On a thread marked with ``runsConcurrentMapInTurn()`` the iterations run one after another on that thread instead.
public func concurrentMap<Element>(_ count: Int, _ body: (Int) -> Element) -> [Element] {
    guard count > 1, pthread_getspecific(inTurnKey) == nil else { return (0..<count).map(body) }
    let slots = UnsafeMutableBufferPointer<Element?>.allocate(capacity: count)
    slots.initialize(repeating: nil)
    defer {
        slots.deinitialize()
        slots.deallocate()
    }
    withoutActuallyEscaping(body) { body in
        let work = Work(slots: slots, body: body)
        DispatchQueue.concurrentPerform(iterations: count) { index in
            work.slots[index] = work.body(index)
        }
    }
    // Every slot was written above; compactMap only unwraps them.
    return slots.compactMap { $0 }
}

/// The result buffer and the body handed to the concurrent iterations; safe as documented on ``concurrentMap(_:_:)``.
private struct Work<Element>: @unchecked Sendable {
    let slots: UnsafeMutableBufferPointer<Element?>
    let body: (Int) -> Element
}

/// Marks the calling thread so that ``concurrentMap(_:_:)`` runs its iterations there, one after another.
///
/// A server's own worker threads call it: Dispatch's concurrent iterations run on the global queues' threads, which
/// on Linux are the threads Swift concurrency runs every task on, so a long drawing (a wide stroke of 10,000 vertices
/// takes minutes) spread over them stopped every timer and request of the server; its workers already keep the cores
/// busy with requests side by side.
public func runsConcurrentMapInTurn() {
    pthread_setspecific(inTurnKey, UnsafeRawPointer(bitPattern: 1))
}

/// The thread-specific key of ``runsConcurrentMapInTurn()``, made once.
private let inTurnKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()
