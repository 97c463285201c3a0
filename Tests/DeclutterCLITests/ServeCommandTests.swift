import DeclutterServer
import Foundation
import Synchronization
import Testing

/// `declutter serve` as a process: refusals before it listens, and a SIGTERM that ends it cleanly. The routes are
/// DeclutterServerTests' to test, in process.
@Suite struct ServeCommandTests {
    @Test(arguments: [
        (["--dataset", "airports"], "Error: --dataset must be NAME=FILE, got airports"),
        (["--dataset", "a b=x.csv"], "Error: --dataset a b=x.csv: dataset name \"a b\" is not 1…64 ASCII letters, digits, '-' or '_'"),
        (["--style", "nope"], "Error: --style: no style \"nope\"; styles: airports, default, tandm"),
        (["--port", "70000"], "Error: --port must be in 0…65535, got 70000"),
        (["--workers", "0"], "Error: --workers must be in 1…256, got 0"),
        (["--log-level", "loud"], "Error: --log-level must be one of trace, debug, info, notice, warning, error, critical, got loud"),
    ])
    func badUsageExitsTwoBeforeListening(arguments: [String], message: String) throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandResult.run(["serve", "--port", "0"] + arguments, in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
        #expect(!result.stderr.contains("listening"))
    }

    @Test func aMissingDatasetFileExitsTwo() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandResult.run(["serve", "--port", "0", "--dataset", "a=missing.csv"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains("missing.csv"), "\(result.stderr)")
    }

    @Test func loadsItsDatasetsListensAndEndsCleanlyOnSIGTERM() throws {
        let process = Process()
        process.executableURL = declutterExecutable
        process.arguments = ["serve", "--port", "0", "--dataset", "cycles=\(tandmPlist)", "--style", "tandm"]
        let errors = Pipe(), text = Mutex("")
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        errors.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            text.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
        defer { if process.isRunning { process.interrupt() } }
        for _ in 0..<400 where !text.withLock({ $0.contains("listening") }) { Thread.sleep(forTimeInterval: 0.05) }
        #expect(text.withLock { $0.hasPrefix("loaded cycles: 65 points in style \"TANDm\"\n") })
        #expect(text.withLock { $0.contains("listening") })
        process.terminate()
        process.waitUntilExit()
        errors.fileHandleForReading.readabilityHandler = nil
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
    }
}
