import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a program as a whole process and measures it from outside: wall time from spawn to exit, and its peak
/// resident memory as the kernel counted it (`ru_maxrss`), which `Process` does not report.
///
/// The peak comes from GNU time (`/usr/bin/time -f %M`), not from this process's own `wait4`: Linux carries the
/// high-water mark of the memory a process had before `execve` into its `ru_maxrss`, and a child spawned from here
/// had this process's memory (posix_spawn shares it until the exec; fork copies it), so a benchmark holding a million
/// points would see its own peak in every child's. time is small, so the program it forks starts clean.
struct TimedProcess {
    /// The program's path.
    var executable: String
    var arguments: [String]
    /// Where its standard output and standard error go (as `stdout` and `stderr`), so that a failure can be shown.
    var logFolder: URL

    /// What one run measured.
    struct Measurement {
        var seconds: Double
        /// The peak resident memory, in megabytes (of 2^20 bytes, as VmHWM is reported); nil without /usr/bin/time.
        var peakMegabytes: Double?
    }

    /// A run that did not exit with status 0.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// GNU time, which reports the peak; nil when the system has none (its Debian package is `time`).
    static let time: String? = FileManager.default.isExecutableFile(atPath: "/usr/bin/time") ? "/usr/bin/time" : nil

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
        let peakFile = logFolder.appendingPathComponent("maxrss").path
        // time writes the peak in kilobytes to its own file, so the program's output stays the program's.
        let command = Self.time.map { [$0, "-f", "%M", "-o", peakFile, executable] } ?? [executable]
        let argv = (command + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }

        var pid: pid_t = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw Failure(description: "cannot run \(executable): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else {
                throw Failure(description: "waiting for \(executable): \(String(cString: strerror(errno)))")
            }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        // The wait status as <sys/wait.h>'s macros read it, which Swift does not import: the low 7 bits are the
        // signal that ended the process (0 when it exited), the next byte its exit status.
        let signal = status & 0x7f, exitStatus = (status >> 8) & 0xff
        guard signal == 0, exitStatus == 0 else {
            let log = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
            let ending = signal == 0 ? "exit status \(exitStatus)" : "signal \(signal)"
            throw Failure(
                description:
                    "\(([executable] + arguments).joined(separator: " ")) ended with \(ending): \(log.suffix(2000))")
        }
        let kilobytes = (try? String(contentsOfFile: peakFile, encoding: .utf8)).flatMap {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return Measurement(seconds: seconds, peakMegabytes: kilobytes.map { $0 / 1024 })
    }
}
