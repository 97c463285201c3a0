import Foundation

/// A command started with `posix_spawn`, its standard streams on the descriptors given, every other descriptor of the
/// test process closed in it, for ``CommandResult/run(_:in:environment:stdin:executable:removing:stdoutFile:)``.
///
/// Foundation's `Process.run()` lists /proc/self/fd to close the child's other descriptors and copies 256 bytes of
/// each entry's name where glibc gives 24: now and then the copy runs past a mapped page and the whole test run
/// crashes (swift-corelibs-foundation #5472; seen here as "Bad pointer dereference" in `Process.run()`, a test
/// starting a command while the server suites held many sockets open). glibc closes them itself here
/// (`posix_spawn_file_actions_addclosefrom_np`), and changes to the working folder (`…addchdir_np`): both since
/// glibc 2.34 and not in Swift's Glibc module, so they are looked up by name.
struct ChildProcess {
    let pid: pid_t

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
    private typealias ChangeDirectory =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, UnsafePointer<CChar>?) -> Int32

    /// glibc's two spawn actions, looked up once; nil before glibc 2.34.
    private static let glibcActions: (CloseFrom, ChangeDirectory)? = {
        let library = dlopen(nil, RTLD_NOW)
        guard let closeFrom = dlsym(library, "posix_spawn_file_actions_addclosefrom_np"),
            let changeDirectory = dlsym(library, "posix_spawn_file_actions_addchdir_np")
        else { return nil }
        return (unsafeBitCast(closeFrom, to: CloseFrom.self), unsafeBitCast(changeDirectory, to: ChangeDirectory.self))
    }()

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `executable` with `arguments` in `folder`, with `environment` as its whole environment; its standard
    /// input, output and error are `input` (nil: this process's own), `output` and `error`.
    init(
        _ executable: String, arguments: [String], in folder: String, environment: [String: String], input: Int32?,
        output: Int32, error: Int32
    ) throws {
        guard let (closeFrom, changeDirectory) = Self.glibcActions else {
            throw Failure(description: "this glibc has no posix_spawn_file_actions_addclosefrom_np (2.34 or later)")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input { posix_spawn_file_actions_adddup2(&actions, input, 0) }
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, error, 2)
        _ = closeFrom(&actions, 3)
        _ = folder.withCString { changeDirectory(&actions, $0) }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0)=\($1)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw Failure(description: "cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        self.pid = pid
    }

    /// Waits for the command to end; its exit status, or the number of the signal that ended it (as Foundation's
    /// `terminationStatus` gives it).
    func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED and WEXITSTATUS, which Swift does not import: the low seven bits are the signal, 0 on an exit.
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : signal
    }
}
