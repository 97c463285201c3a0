import DeclutterRender
import DeclutterSupport
import DeclutterTileSources
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// A fixed number of threads that draw maps off the event loops, with a bounded queue in front of them: a job that
/// finds every thread busy and the queue full is refused at once (the server answers 503 with `Retry-After`)
/// rather than waiting without bound.
///
/// Each thread keeps its own ``RenderWorker`` (renderers hold Cairo and Pango state that serves one thread at a
/// time). As a service of the server's service group, the pool stops after the HTTP server has finished its
/// requests on graceful shutdown: threads finish the jobs queued, then exit.
public final class RenderPool: Service, Sendable {
    /// The threads.
    public let workers: Int
    /// Jobs that may wait for a thread.
    public let queueLength: Int
    /// What the pool does, in its threads' names and its messages: `render` (maps), `fetch` (maps' tiles), `tiles`
    /// (vector tiles and sprite sheets).
    public let name: String
    /// What one job is, in messages: `maps`, `tiles`.
    let jobs: String

    private struct State {
        var jobs: [Job] = []
        /// Jobs taken by a thread and not finished.
        var running = 0
        var stopping = false
        /// Jobs refused since the pool started: full, or stopping.
        var refused = 0
    }

    private struct Job {
        let deadline: ContinuousClock.Instant
        /// Runs the job and returns how to deliver its answer, which the thread calls once it no longer counts the
        /// job as running: a client answered at once may ask again before the thread would otherwise have counted down,
        /// and find the pool full of jobs already done.
        let work: @Sendable (RenderWorker, _ late: Bool) -> @Sendable () -> Void
    }

    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    private let exited = DispatchGroup()

    /// The counts ``ServerMetrics`` reports: jobs running and jobs waiting.
    public var load: (running: Int, queued: Int) { state.withLock { ($0.running, $0.jobs.count) } }

    /// Jobs refused since the pool started, because it was full or stopping.
    var refusals: Int { state.withLock { $0.refused } }

    /// Jobs that may wait per thread when the queue's length is not given: a few maps' time of waiting (a map takes
    /// milliseconds to a few tenths of a second), beyond which a client is better told to come back.
    public static let queuedPerWorker = 4

    /// The embedded basemap's tiles its threads draw from, kept within their budget.
    public let basemapTiles: BasemapTileCache

    /// Starts `workers` threads (at least 1) with room for `queueLength` waiting jobs (0 or more; default
    /// ``queuedPerWorker`` per thread), sharing up to `basemapCacheBytes` of the embedded basemap's tiles (128 MiB by
    /// default).
    public convenience init(
        workers: Int = ProcessInfo.processInfo.activeProcessorCount, queueLength: Int? = nil,
        basemapCacheBytes: Int = 128 << 20
    ) {
        self.init(
            workers: workers, queueLength: queueLength, name: "render", jobs: "maps",
            basemapTiles: BasemapTileCache(budget: basemapCacheBytes))
    }

    /// Starts a pool named `name` (for its threads and messages) whose jobs are `jobs` in messages.
    init(
        workers: Int, queueLength: Int?, name: String, jobs: String,
        basemapTiles: BasemapTileCache = BasemapTileCache(budget: 0)
    ) {
        self.basemapTiles = basemapTiles
        self.name = name
        self.jobs = jobs
        self.workers = max(1, workers)
        self.queueLength = max(0, queueLength ?? Self.queuedPerWorker * max(1, workers))
        for number in 0..<self.workers {
            exited.enter()
            let thread = Thread { [self] in
                // A job's own concurrentMap stays on this thread, off the threads the server's tasks run on.
                runsConcurrentMapInTurn()
                work()
                exited.leave()
            }
            thread.name = "declutter-\(name)-\(number)"
            thread.start()
        }
    }

    /// Runs `work` on one of the pool's threads and returns its result.
    ///
    /// - Parameter timeLimit: Seconds the job may take from now, queue included. A job still queued at its deadline
    ///   is not run; one still running is answered with an error while its thread finishes it.
    /// - Throws: ``ServerError`` 503 when the pool is full, stopping, or the time limit passes; what `work` throws.
    public func run<Value: Sendable>(timeLimit: Double, _ work: @escaping @Sendable (RenderWorker) throws -> Value)
        async throws -> Value
    {
        try await run(until: ContinuousClock.now + .milliseconds(Int64(timeLimit * 1000)), timeLimit: timeLimit, work)
    }

    /// Runs `work` as ``run(timeLimit:_:)`` does, by `deadline`; `timeLimit` names the whole limit in the message.
    func run<Value: Sendable>(
        until deadline: ContinuousClock.Instant, timeLimit: Double,
        _ work: @escaping @Sendable (RenderWorker) throws -> Value
    ) async throws -> Value {
        let answer = Answer<Value>()
        let timeout = self.timeout(timeLimit)
        return try await withCheckedThrowingContinuation { continuation in
            answer.set(continuation)
            let job = Job(deadline: deadline) { worker, late in
                let result: Result<Value, any Error> =
                    late ? .failure(timeout) : Result { try work(worker) }
                return { answer.finish(result) }
            }
            let refusal: ServerError? = state.withLock { state in
                if state.stopping || state.running + state.jobs.count >= workers + queueLength { state.refused += 1 }
                if state.stopping {
                    return ServerError(
                        .serviceUnavailable, field: "server", "the server is shutting down", retryAfter: 1)
                }
                guard state.running + state.jobs.count < workers + queueLength else {
                    return ServerError(
                        .serviceUnavailable, field: "server",
                        "all \(workers) \(name) threads are busy and \(queueLength) \(jobs) are queued; try again shortly",
                        retryAfter: 1)
                }
                state.jobs.append(job)
                return nil
            }
            if let refusal {
                answer.finish(.failure(refusal))
                return
            }
            wake.signal()
            // The answer comes at the deadline at the latest, even if the thread is still drawing; an answer before
            // then cancels the timer.
            answer.setTimer(
                Task {
                    guard (try? await Task.sleep(until: deadline, clock: .continuous)) != nil else { return }
                    answer.finish(.failure(timeout))
                })
        }
    }

    /// The answer to a job past its time limit: a map's, or (the tiles pool's tiles, sprite sheets and styles) an
    /// answer's.
    private func timeout(_ seconds: Double) -> ServerError {
        ServerError(
            .serviceUnavailable, field: "server",
            jobs.hasPrefix("maps")
                ? "the map took longer than the limit of \(seconds) s to draw"
                : "the answer took longer than the limit of \(seconds) s to make (on the \(name) threads)",
            retryAfter: 1)
    }

    /// A thread's loop: take the oldest job, run it, until the pool stops and the queue is empty.
    private func work() {
        let worker = RenderWorker(basemapTiles: basemapTiles)
        while true {
            wake.wait()
            let job: Job? = state.withLock { state in
                guard !state.jobs.isEmpty else { return nil }
                state.running += 1
                return state.jobs.removeFirst()
            }
            guard let job else { return }  // Woken with nothing to do: the pool is stopping.
            let deliver = job.work(worker, ContinuousClock.now >= job.deadline)
            state.withLock { $0.running -= 1 }
            deliver()
        }
    }

    /// Lets the threads finish the jobs queued, then end; later jobs are refused.
    public func stop() {
        let alreadyStopping = state.withLock { state in
            defer { state.stopping = true }
            return state.stopping
        }
        guard !alreadyStopping else { return }
        // One wake per thread besides one per job queued, so that each thread finds the queue empty once.
        for _ in 0..<workers { wake.signal() }
    }

    /// Waits for graceful shutdown, then stops the threads once their jobs are done; cancelled (the shutdown's
    /// deadline passed), it returns without waiting for them, since a thread inside cairo cannot be stopped and the
    /// process ends without it.
    public func run() async throws {
        try? await gracefulShutdown()
        stop()
        let waiting = Waiting()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                waiting.set(continuation)
                exited.notify(queue: .global()) { waiting.resume() }
                if Task.isCancelled { waiting.resume() }
            }
        } onCancel: {
            waiting.resume()
        }
    }

    /// A wait that the threads' exit or a cancellation ends, whichever comes first.
    private final class Waiting: Sendable {
        private let continuation = Mutex<CheckedContinuation<Void, Never>?>(nil)
        func set(_ continuation: CheckedContinuation<Void, Never>) { self.continuation.withLock { $0 = continuation } }
        func resume() { continuation.withLock { $0.take() }?.resume() }
    }

    /// A job's answer, given once: by its thread, or by the time limit, whichever comes first.
    private final class Answer<Value: Sendable>: Sendable {
        private let state = Mutex<
            (continuation: CheckedContinuation<Value, any Error>?, timer: Task<Void, Never>?, done: Bool)
        >((nil, nil, false))

        func set(_ continuation: CheckedContinuation<Value, any Error>) {
            state.withLock { $0.continuation = continuation }
        }

        /// Keeps the time limit's timer, to cancel it once answered; cancelled at once if the answer came first.
        func setTimer(_ timer: Task<Void, Never>) {
            let done = state.withLock { state in
                state.timer = timer
                return state.done
            }
            if done { timer.cancel() }
        }

        func finish(_ result: Result<Value, any Error>) {
            let (continuation, timer) = state.withLock { state in
                defer { (state.continuation, state.timer, state.done) = (nil, nil, true) }
                return (state.continuation, state.timer)
            }
            timer?.cancel()
            continuation?.resume(with: result)
        }
    }
}
