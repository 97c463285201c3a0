import DeclutterSupport
import Foundation
import Testing

/// `concurrentMap`: results in index order, spread over threads, and kept on a marked thread.
@Suite struct ConcurrentMapTests {
    /// The threads the iterations ran on, by `pthread_self`.
    static func threads(_ count: Int) -> [pthread_t] {
        concurrentMap(count) { _ in
            // Long enough that one thread does not take every iteration before the others start.
            usleep(2_000)
            return pthread_self()
        }
    }

    @Test func resultsComeInIndexOrder() {
        #expect(concurrentMap(100) { $0 * $0 } == (0..<100).map { $0 * $0 })
    }

    /// A server's worker thread is marked: its iterations run there, one after another, none on Dispatch's threads
    /// (Swift concurrency's, on Linux).
    @Test func aMarkedThreadRunsItsIterationsItself() {
        let marked = Box()
        let thread = Thread {
            runsConcurrentMapInTurn()
            marked.own = pthread_self()
            marked.threads = Self.threads(16)
            marked.done.signal()
        }
        thread.start()
        marked.done.wait()
        #expect(marked.threads.count == 16)
        #expect(marked.threads.allSatisfy { pthread_equal($0, marked.own) != 0 })
    }

    final class Box: @unchecked Sendable {
        var own = pthread_self()
        var threads: [pthread_t] = []
        let done = DispatchSemaphore(value: 0)
    }
}
