import ArgumentParser
import DeclutterCommandLine
import DeclutterRender
import DeclutterStyle
import DeclutterTesting
import Foundation

/// `declutter bench …`: runs `declutter-bench`, the separate program that holds the benchmarks, from beside this
/// executable, so that the shipped `declutter` carries no benchmark code while the documented command still works.
struct BenchForwarding: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure a capability: runs declutter-bench, built beside declutter (swift build -c release).",
        // A declutter copied alone has no declutter-bench beside it, and lists no command that could only fail.
        shouldDisplay: FileManager.default.isExecutableFile(atPath: programBesideThisOne("declutter-bench").path))

    @Argument(
        parsing: .captureForPassthrough,
        help:
            "What declutter-bench takes: an area (markers, cluster, placement, sprites, diff, render, png, tiles, serve) and its options."
    )
    var arguments: [String] = []

    func run() throws {
        let bench = programBesideThisOne("declutter-bench")
        guard FileManager.default.isExecutableFile(atPath: bench.path) else {
            throw CommandError(
                "the benchmarks are a program of their own, declutter-bench, which is not beside this declutter "
                    + "(\(bench.path)); build it with `swift build -c release --product declutter-bench` and run "
                    + "`.build/release/declutter-bench \(arguments.joined(separator: " "))`")
        }
        let argv = ([bench.path] + arguments).map { strdup($0) } + [nil]
        execv(bench.path, argv)
        // execv returns only when it failed.
        throw CommandError("cannot run \(bench.path): \(String(cString: strerror(errno)))")
    }
}
