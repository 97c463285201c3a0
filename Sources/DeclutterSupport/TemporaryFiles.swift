import Foundation
import Synchronization

/// The temporary files this process is writing, so that an interrupted command leaves none behind.
///
/// Outputs go to hidden temporaries that are renamed into place once all are written
/// (``FileSystem/writeAllAtomically(_:)``). A SIGINT or SIGTERM in between would leave the temporaries on disk,
/// so ``removeOnInterrupt()`` catches both signals. The handler takes the same lock a write holds from its first
/// temporary to its last rename: a signal during a write waits for it (the outputs are then all there, or none
/// if it failed), removes whatever is still registered, and ends the process with the signal's usual status.
public enum TemporaryFiles {
    private static let registered = Mutex<Set<String>>([])

    /// Runs `body` holding the lock an interrupt waits for, with the set of temporaries to register in.
    static func whileWriting<Result>(_ body: (inout Set<String>) throws -> Result) throws -> Result {
        try registered.withLock { paths throws -> Result in try body(&paths) }
    }

    /// Registers a temporary that a long job writes on its own (a tileset archive, a folder of tiles), so that an
    /// interrupt removes it. Unlike ``FileSystem/writeAllAtomically(_:)``, the lock is held only for the registration:
    /// a job of minutes must not keep SIGINT waiting.
    public static func register(_ path: String) {
        registered.withLock { paths in _ = paths.insert(path) }
    }

    /// Renames a registered temporary onto `target` and forgets it, holding the lock an interrupt waits for, so that
    /// an interrupt sees either the temporary (and removes it) or the finished output (and leaves it).
    ///
    /// - Returns: 0, or the `errno` of the failed rename (the temporary then stays registered).
    public static func moveIntoPlace(_ temporary: String, to target: String) -> Int32 {
        registered.withLock { paths in
            guard rename(temporary, target) == 0 else { return errno }
            paths.remove(temporary)
            return 0
        }
    }

    /// Removes a registered temporary, a file or a whole folder, and forgets it.
    public static func discard(_ path: String) {
        registered.withLock { paths in
            paths.remove(path)
            removeFileOrFolder(path)
        }
    }

    /// Removes a file, or a folder with everything in it; a folder of tiles is a temporary too.
    ///
    /// An interrupt does not stop the job's other threads, which may still be making files in the folder: emptied
    /// as it is, it would then keep what they make meanwhile. So the folder is renamed first, after which their
    /// files, made by path, fail; the removal is repeated for the few under way at the rename.
    private static func removeFileOrFolder(_ path: String) {
        guard unlink(path) != 0, errno == EISDIR || errno == EPERM else { return }
        let removing = path + ".removing"
        let target = rename(path, removing) == 0 ? removing : path
        for _ in 0..<100 {
            try? FileManager.default.removeItem(atPath: target)
            guard access(target, F_OK) == 0 else { return }
            usleep(1_000)
        }
    }

    /// Called between the last temporary and the first rename. With `DECLUTTER_TEST_HOLD_WRITE` set, it says
    /// "holding" on standard error and waits a second, so that a test can interrupt a write deterministically.
    static func pauseBeforeRenamesIfTesting() {
        guard ProcessInfo.processInfo.environment["DECLUTTER_TEST_HOLD_WRITE"] != nil else { return }
        FileHandle.standardError.write(Data("holding\n".utf8))
        sleep(1)
    }

    /// Catches SIGINT and SIGTERM from now on: registered temporaries are removed and the process then ends as the
    /// signal would have ended it. Called once, at the start of a command-line run.
    public static func removeOnInterrupt() {
        handlers.withLock { sources in
            guard sources.isEmpty else { return }
            // A queue of its own gets a thread even while every core runs a concurrentMap.
            let queue = DispatchQueue(label: "declutter.interrupt")
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler {
                    registered.withLock { paths in
                        for path in paths { removeFileOrFolder(path) }
                        // Still holding the lock, so no new temporary can appear before the process ends. Dispatch's
                        // threads block signals: unblocked here, the raised one ends the process at once.
                        signal(number, SIG_DFL)
                        var set = sigset_t()
                        sigemptyset(&set)
                        sigaddset(&set, number)
                        pthread_sigmask(SIG_UNBLOCK, &set, nil)
                        raise(number)
                        _exit(128 + number)
                    }
                }
                source.resume()
                sources.append(source)
            }
            // A parent may start us with these signals blocked (a test runner's thread does); blocked, they would
            // stay pending and never reach the handler.
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, SIGINT)
            sigaddset(&set, SIGTERM)
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
        }
    }

    /// Stops ending the process on SIGINT and SIGTERM (the signals stay ignored), for a command that shuts down
    /// gracefully on them itself, as `declutter serve` does through swift-service-lifecycle.
    public static func keepRunningOnInterrupt() {
        handlers.withLock { sources in
            for source in sources { source.cancel() }
            sources.removeAll()
        }
    }

    private static let handlers = Mutex<[any DispatchSourceSignal]>([])
}
