import Foundation
import Glibc
import Testing

/// Every example every `--help` prints runs as printed, from a `declutter` copied alone into a folder of its own, in an
/// empty folder: a help whose example needs a file that does not ship, wraps mid-command or names a style by a path of
/// the package fails here.
@Suite(.serialized) struct HelpExamplesTests {
    /// The commands whose help shows examples, with how many commands each shows.
    static let examples: [(command: String, count: Int)] = [
        ("render", 6), ("demo", 3), ("marker", 2), ("sprites", 1), ("tiles", 3), ("serve", 6), ("cluster", 8),
        ("place", 2), ("diff", 6),
    ]

    @Test func theHelpListsOnlyCommandsThatRun() throws {
        let (bin, folder) = try copiedBinary()
        defer { try? FileManager.default.removeItem(at: folder) }
        let help = try run(["--help"], bin: bin, in: folder)
        #expect(help.status == 0)
        // A command's line starts two spaces in; its abstract's wrapped lines further.
        let commands = help.stdout.components(separatedBy: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let word = line.split(separator: " ").first,
                !word.hasPrefix("-"), word != "See"
            else {
                return nil
            }
            return String(word)
        }
        // bench runs declutter-bench from beside declutter: a copy alone has none, so its help does not offer it.
        #expect(commands == ["render", "demo", "marker", "sprites", "tiles", "serve", "cluster", "place", "diff"])
        let workers = try run(["serve", "--help"], bin: bin, in: folder).stdout
        #expect(workers.components(separatedBy: "the number of cores").count == 2)
        #expect(!workers.contains("(default: \(ProcessInfo.processInfo.activeProcessorCount))"))
    }

    @Test(arguments: examples.map(\.command))
    func everyExampleRunsAsPrinted(_ command: String) throws {
        let (bin, folder) = try copiedBinary()
        defer { try? FileManager.default.removeItem(at: folder) }
        let help = try run([command, "--help"], bin: bin, in: folder)
        let lines = Self.exampleCommands(help.stdout)
        #expect(
            lines.count == Self.examples.first { $0.command == command }?.count, "\(command) --help:\n\(help.stdout)")
        let work = folder.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        // The server's example port is taken for a free one, the same in every line that names it.
        let port = try freePort()
        let script = Self.script(
            lines.map { $0.replacingOccurrences(of: "8080", with: String(port)) }, port: port,
            statuses: folder.appendingPathComponent("statuses").path,
            serverPID: folder.appendingPathComponent("server.pid").path)
        let result = try run(["-c", script], bin: bin, in: work, shell: true)
        let statuses = (try? String(contentsOf: folder.appendingPathComponent("statuses"), encoding: .utf8)) ?? ""
        let codes = statuses.split(separator: "\n").map { Int32($0) ?? -1 }
        #expect(codes.count == lines.count, "\(command): ran \(codes.count) of \(lines.count)\n\(result.stderr)")
        for (line, code) in zip(lines, codes) {
            // diff answers 1 for images that differ, a comparison that ran.
            let allowed: Set<Int32> = line.hasPrefix("declutter diff ") ? [0, 1] : [0]
            #expect(allowed.contains(code), "\(command) --help: `\(line)` exited \(code)\n\(result.stderr)")
        }
        // What curl fetched from the server is a map, not an error's JSON.
        for line in lines where line.hasPrefix("curl ") {
            let words = line.split(separator: " ")
            guard let flag = words.firstIndex(of: "-o"), flag + 1 < words.count else { continue }
            let bytes = try Data(contentsOf: work.appendingPathComponent(String(words[flag + 1])))
            #expect(
                bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]),
                "\(line): \(String(decoding: bytes.prefix(200), as: UTF8.self))")
        }
    }

    @Test func examplesAreReadAsTheShellReadsThem() {
        let help = """
            OVERVIEW: x

            Examples (declutter demo --write-examples writes their input):
              declutter demo --write-examples Examples
              declutter render --input a.csv \\
                --output b.png
              curl -o c.png \\
                http://127.0.0.1:8080/x

            USAGE: declutter render
            """
        #expect(
            Self.exampleCommands(help) == [
                "declutter demo --write-examples Examples", "declutter render --input a.csv --output b.png",
                "curl -o c.png http://127.0.0.1:8080/x",
            ])
    }

    /// The commands of a help's `Examples` block, lines ending in a backslash joined with the next.
    static func exampleCommands(_ help: String) -> [String] {
        var commands: [String] = [], inBlock = false, pending: String?
        for line in help.components(separatedBy: "\n") {
            if line.hasPrefix("Example") {
                inBlock = true
                continue
            }
            guard inBlock else { continue }
            if line.trimmingCharacters(in: .whitespaces).isEmpty { break }
            guard line.hasPrefix("  ") else { continue }
            var text = line.trimmingCharacters(in: .whitespaces)
            if let start = pending { text = start + " " + text }
            if text.hasSuffix("\\") {
                pending = String(text.dropLast()).trimmingCharacters(in: .whitespaces)
                continue
            }
            pending = nil
            commands.append(text)
        }
        return commands
    }

    /// A shell script that runs `commands` in order, appending each one's exit status to `statuses`; a `declutter
    /// serve` runs in the background (its process id in `serverPID`, its output apart so that it holds no pipe of the
    /// test's), the script waits until it answers on `port`, and stops it at the end.
    static func script(_ commands: [String], port: Int, statuses: String, serverPID: String) -> String {
        let lines = commands.map { command in
            guard command.hasPrefix("declutter serve ") else { return "\(command)\necho $? >> '\(statuses)'" }
            return """
                \(command) > '\(serverPID).log' 2>&1 &
                echo $! > '\(serverPID)'
                up=1; for attempt in $(seq 300); do curl -s -o /dev/null http://127.0.0.1:\(port)/health && up=0 && break; sleep 0.1; done
                echo $up >> '\(statuses)'
                """
        }
        return (lines + ["if [ -f '\(serverPID)' ]; then kill $(cat '\(serverPID)'); wait; fi"]).joined(separator: "\n")
    }

    /// A folder holding `bin/declutter`, a copy of the built one alone in its folder.
    func copiedBinary() throws -> (bin: URL, folder: URL) {
        let folder = try scratchFolder()
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: declutterExecutable, to: bin.appendingPathComponent("declutter"))
        // A process another test starts while the copy is written may hold its write descriptor for a moment, and Linux
        // refuses to run a file open for writing (ETXTBSY): wait for that to pass.
        for _ in 0..<100 where (try? run(["--version"], bin: bin, in: folder))?.status != 0 {
            Thread.sleep(forTimeInterval: 0.05)
        }
        return (bin, folder)
    }

    /// Runs the copied `declutter` (or, with `shell`, /bin/sh) in `folder`, with the copy's folder first on the path
    /// and no styles folder of the user's.
    func run(_ arguments: [String], bin: URL, in folder: URL, shell: Bool = false) throws -> CommandResult {
        let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return try CommandResult.run(
            arguments, in: folder, environment: ["PATH": path],
            executable: shell ? URL(fileURLWithPath: "/bin/sh") : bin.appendingPathComponent("declutter"),
            removing: ["DECLUTTER_STYLES"])
    }

    /// A TCP port no one listens on now.
    func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else { throw CocoaError(.fileWriteUnknown) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
