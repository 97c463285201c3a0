import Logging
import ServiceLifecycle
import Testing

@testable import DeclutterServer

/// The trimmer runs beside the server and ends with it: a graceful shutdown ends its wait at once, so that a server
/// stopping does not wait out the interval.
@Suite struct MemoryTrimmerTests {
    /// Its interval is an hour: the test's limit of a minute fails it if it waits the interval out.
    @Test(.timeLimit(.minutes(1))) func endsAtOnceOnGracefulShutdown() async throws {
        let group = ServiceGroup(
            configuration: .init(
                services: [MemoryTrimmer(interval: .seconds(3600))], logger: Logger(label: "declutter.tests")))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            try await Task.sleep(for: .milliseconds(100))
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }
}
