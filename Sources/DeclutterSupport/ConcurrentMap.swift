import Foundation

/// Calls `body` for each index in `0..<count` on every core and returns the results in index order.
///
/// Each iteration writes only its own slot, so no lock is needed; `body` must be safe to run concurrently
/// (the callers decode separate tiles, deflate separate rows or cluster separate bands of points).
public func concurrentMap<Element>(_ count: Int, _ body: (Int) -> Element) -> [Element] {
    guard count > 1 else { return (0..<count).map(body) }
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
