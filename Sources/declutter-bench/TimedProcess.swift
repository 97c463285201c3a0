import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program as a whole process and measures it from outside: wall time from spawn to exit, and its peak
/// resident memory as the kernel counted it (`ru_maxrss` from `wait4`), which `Process` does not report.
struct TimedProcess {
    /// The program's path.
    var executable: String
    var arguments: [String]
    /// Where its standard output and standard error go (as `stdout` and `stderr`), so that a failure can be shown.
    var logFolder: URL

    /// What one run measured.
    struct Measurement {
        var seconds: Double
        /// The peak resident memory, in megabytes (of 2^20 bytes, as VmHWM is reported).
        var peakMegabytes: Double
    }

    /// A run that did not exit with status 0.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs the program once and waits for it.
    ///
    /// - Throws: ``Failure`` with the end of its standard error when it cannot start or ends in failure.
    func run() throws -> Measurement {
        let out = logFolder.appendingPathComponent("stdout").path, err = logFolder.appendingPathComponent("stderr").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }

        var pid: pid_t = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw Failure(description: "cannot run \(executable): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw Failure(description: "waiting for \(executable): \(String(cString: strerror(errno)))") }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        // The wait status as <sys/wait.h>'s macros read it, which Swift does not import: the low 7 bits are the
        // signal that ended the process (0 when it exited), the next byte its exit status.
        let signal = status & 0x7f, exitStatus = (status >> 8) & 0xff
        guard signal == 0, exitStatus == 0 else {
            let log = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
            let ending = signal == 0 ? "exit status \(exitStatus)" : "signal \(signal)"
            throw Failure(description: "\(([executable] + arguments).joined(separator: " ")) ended with \(ending): \(log.suffix(2000))")
        }
        // Linux gives ru_maxrss in kilobytes.
        return Measurement(seconds: seconds, peakMegabytes: Double(usage.ru_maxrss) / 1024)
    }
}
