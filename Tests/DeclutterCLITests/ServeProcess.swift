import Foundation
import Synchronization

/// A `declutter serve` started as a process, its stderr gathered as it comes, for the tests that run the server as an
/// operator would.
final class ServeProcess: Sendable {
    let process: Process
    private let errors = Pipe()
    private let text = Mutex("")

    /// Starts `executable` (by default `declutter`) with `arguments`, in `folder` when given.
    init(_ arguments: [String], in folder: URL? = nil, executable: URL = declutterExecutable) throws {
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        errors.fileHandleForReading.readabilityHandler = { [self] handle in
            let data = handle.availableData
            self.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
    }

    /// What the process wrote to stderr so far.
    var log: String { text.withLock { $0 } }

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

    /// Sends SIGTERM and waits for the process to end.
    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        errors.fileHandleForReading.readabilityHandler = nil
    }
}
