import Foundation
import Synchronization

/// A `declutter serve` started as a process, its stderr gathered as it comes, for the tests that run the server as an
/// operator would.
///
/// A thread of its own reads stderr with blocking reads until the process closes it. Foundation's
/// `readabilityHandler` did this before through a dispatch read source, and once crashed the whole test run in
/// libdispatch's event loop (`_dispatch_event_loop_drain`, a known fault with read sources on pipes that close while
/// other tests open theirs).
final class ServeProcess: Sendable {
    let process: Process
    private let errors = Pipe()
    private let bytes = Mutex<[UInt8]>([])
    /// Signalled by the reader once stderr has ended.
    private let drained = DispatchSemaphore(value: 0)

    /// Starts `executable` (by default `declutter`) with `arguments`, in `folder` when given.
    init(_ arguments: [String], in folder: URL? = nil, executable: URL = declutterExecutable) throws {
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // The reader holds the pipe, so its descriptor stays open until the reads end.
        Thread { [self] in
            let descriptor = errors.fileHandleForReading.fileDescriptor
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                bytes.withLock { $0 += buffer[..<count] }
            }
            drained.signal()
        }.start()
    }

    /// What the process wrote to stderr so far.
    var log: String { bytes.withLock { String(decoding: $0, as: UTF8.self) } }

    /// Waits up to 20 s for the log to say `listening`; the port it listens on, nil if it did not.
    func listeningPort() async throws -> Int? {
        for _ in 0..<400 {
            let port = log.split(separator: "\n").first { $0.hasSuffix("listening") }?.split(separator: " ")
                .first { $0.hasPrefix("port=") }.flatMap { Int($0.dropFirst(5)) }
            if port != nil || !process.isRunning { return port }
            try await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    /// Sends SIGTERM and waits for the process to end and its stderr to be read to the end (a child it started
    /// could hold stderr open longer: 10 s at most).
    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        _ = drained.wait(timeout: .now() + 10)
    }
}
