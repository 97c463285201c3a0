import DeclutterClustering
import DeclutterServer
import DeclutterTileSources
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A server run in the background for a benchmark: started with its output in a folder, stopped with SIGTERM (and
/// SIGKILL if it has not ended 10 s later) when the benchmark is done or fails.
final class BackgroundProcess {
    /// What it is called in messages.
    let name: String
    let pid: pid_t
    /// Its standard error, shown when it fails.
    private let errorLog: String
    private var ended = false

    /// A process that could not start, ended early, or did not become ready.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `executable` with `arguments`, this process's environment plus `environment`, standard input from
    /// /dev/null and standard output and error into `logFolder` as `NAME.stdout` and `NAME.stderr`.
    init(name: String, executable: String, arguments: [String], environment: [String: String] = [:], logFolder: URL)
        throws
    {
        self.name = name
        errorLog = logFolder.appendingPathComponent("\(name).stderr").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(
            &actions, 1, logFolder.appendingPathComponent("\(name).stdout").path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errorLog, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var variables = ProcessInfo.processInfo.environment
        variables.merge(environment) { $1 }
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw Failure(description: "cannot run \(executable): \(String(cString: strerror(spawned)))")
        }
        self.pid = pid
    }

    deinit { stop() }

    /// Its standard error's end; after a crash, the crash report from its first line (the reason and the crashing
    /// thread's frames come first, the other threads after them).
    var errorText: String {
        let text = (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? ""
        if let crash = text.range(of: "Program crashed") {
            let line = text[..<crash.lowerBound].lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
            return String(text[line...].prefix(6000))
        }
        return String(text.suffix(2000))
    }

    /// Whether it has ended (and is reaped).
    var hasEnded: Bool {
        guard !ended else { return true }
        var status: Int32 = 0
        ended = waitpid(pid, &status, WNOHANG) == pid
        return ended
    }

    /// Polls `http://127.0.0.1:port/path` until it answers 200, for up to `seconds`.
    ///
    /// - Throws: ``Failure`` with its standard error when it ends first or does not answer 200 in time.
    func waitUntilReady(port: Int, path: String, seconds: Double = 60) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if hasEnded { throw Failure(description: "\(name) ended before answering GET \(path): \(errorText)") }
            if (try? LoopbackRequest(port: port, path: path).send())?.status == 200 { return }
            usleep(100_000)
        }
        throw Failure(description: "\(name) did not answer GET \(path) with 200 within \(Int(seconds)) s: \(errorText)")
    }

    /// Sends SIGTERM and waits for it to end, with SIGKILL after 10 s.
    func stop() {
        guard !hasEnded else { return }
        kill(pid, SIGTERM)
        for _ in 0..<100 {
            if hasEnded { return }
            usleep(100_000)
        }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        ended = true
    }
}
