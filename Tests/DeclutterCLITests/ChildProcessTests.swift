import Foundation
import Testing

/// The commands the tests start get their folder, environment and streams, and none of the test process's other
/// descriptors: a child holding a client's socket would keep a connection open that a test closes.
@Suite struct ChildProcessTests {
    @Test func aChildSeesOnlyItsOwnStreamsFolderAndEnvironment() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A descriptor of this process, open while the child starts.
        let held = open("/dev/null", O_RDONLY)
        defer { close(held) }
        #expect(held > 2)
        let result = try CommandResult.run(
            ["-c", "ls /proc/$$/fd; pwd; echo \"$DECLUTTER_CHILD_TEST\"; cat; echo oops >&2; exit 3"], in: folder,
            environment: ["DECLUTTER_CHILD_TEST": "given"], stdin: Data("from stdin\n".utf8),
            executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(result.status == 3)
        #expect(
            result.stdout
                == "0\n1\n2\n\(folder.resolvingSymlinksInPath().path)\ngiven\nfrom stdin\n", "\(result.stdout)")
        #expect(result.stderr == "oops\n")
    }
}
