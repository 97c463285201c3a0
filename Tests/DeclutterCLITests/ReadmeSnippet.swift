import DeclutterGeometry
import DeclutterRender
import Foundation
import Testing

/// A ```` ```swift ```` block of a Markdown file, and how to type-check it against the built modules.
struct ReadmeSnippet: Sendable, CustomTestStringConvertible {
    /// The line of the opening fence, from 1.
    var line: Int
    /// The block's code.
    var code: String

    var testDescription: String { "README.md:\(line)" }

    /// The modules the snippet imports, in order.
    var imports: [String] {
        code.components(separatedBy: "\n").compactMap { line in
            line.hasPrefix("import ")
                ? String(line.dropFirst("import ".count)).trimmingCharacters(in: .whitespaces) : nil
        }
    }

    /// The package paths the snippet names in string literals (`"Examples/…"`, `"Styles/…"`).
    var packagePaths: [String] {
        code.matches(of: /"((?:Examples|Styles)\/[^"]+)"/).map { String($0.1) }
    }

    /// The ```` ```swift ```` blocks of `markdown`, in order.
    static func parse(markdown: String) -> [ReadmeSnippet] {
        var snippets: [ReadmeSnippet] = []
        var current: ReadmeSnippet?
        var inOtherBlock = false
        for (offset, line) in markdown.components(separatedBy: "\n").enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("```") else {
                if current != nil { current?.code += line + "\n" }
                continue
            }
            if let snippet = current {
                snippets.append(snippet)
                current = nil
            } else if inOtherBlock {
                inOtherBlock = false
            } else if trimmed == "```swift" {
                current = ReadmeSnippet(line: offset + 1, code: "")
            } else {
                inOtherBlock = true
            }
        }
        return snippets
    }

    /// Type-checks the snippet as a `main.swift` (top-level code allowed) against the modules of this build, with the
    /// C modules' maps and the system headers pkg-config names, as SwiftPM compiles the package's own targets.
    func typecheck() throws -> CommandResult {
        let build = URL(fileURLWithPath: Bundle.main.executablePath ?? CommandLine.arguments[0])
            .deletingLastPathComponent()
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(code.utf8).write(to: folder.appendingPathComponent("main.swift"))
        let env = URL(fileURLWithPath: "/usr/bin/env")
        let cflags = try CommandResult.run(
            ["pkg-config", "--cflags", "pangocairo", "sqlite3"], in: folder, executable: env)
        guard cflags.status == 0 else { return cflags }
        // SwiftPM drops -pthread from system libraries' flags too; clang would warn about it.
        let headers = cflags.stdout.split(whereSeparator: \.isWhitespace).filter { $0 != "-pthread" }.flatMap {
            ["-Xcc", String($0)]
        }
        // Every C module: the system libraries' maps in Sources/C*/ and those SwiftPM writes for C targets, the
        // package's and its dependencies' (swift-nio's CNIO…, swift-atomics' _AtomicsShims, which DeclutterServer's
        // imports reach).
        let fm = FileManager.default
        let sources = packageRoot.appendingPathComponent("Sources")
        let systemMaps = (try fm.contentsOfDirectory(atPath: sources.path)).filter { $0.hasPrefix("C") }
            .map { sources.appendingPathComponent($0).appendingPathComponent("module.modulemap") }
        let targetMaps = (try fm.contentsOfDirectory(atPath: build.path)).filter { $0.hasSuffix(".build") }
            .map { build.appendingPathComponent($0).appendingPathComponent("module.modulemap") }
        // A dependency's C target with a module map of its own keeps it in its checkout's include/ folder.
        let checkouts = build.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "checkouts")
        let checkoutMaps = (fm.enumerator(atPath: checkouts.path)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix("/include/module.modulemap") && $0.contains("/Sources/") }
            .map { checkouts.appendingPathComponent($0) }
        let moduleMaps = (systemMaps + targetMaps + checkoutMaps).filter { fm.fileExists(atPath: $0.path) }.sorted {
            $0.path < $1.path
        }
        .flatMap { ["-Xcc", "-fmodule-map-file=\($0.path)"] }
        return try CommandResult.run(
            ["swiftc", "-typecheck", "main.swift", "-I", build.appendingPathComponent("Modules").path]
                + moduleMaps + headers, in: folder, executable: env)
    }
}
