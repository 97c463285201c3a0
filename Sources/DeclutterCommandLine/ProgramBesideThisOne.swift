import Foundation

/// The program `name` in this executable's folder (links resolved), where `swift build` puts `declutter` and
/// `declutter-bench` side by side: each finds the other there.
package func programBesideThisOne(_ name: String) -> URL {
    let own = URL(fileURLWithPath: Bundle.main.executablePath ?? CommandLine.arguments[0]).resolvingSymlinksInPath()
    return own.deletingLastPathComponent().appendingPathComponent(name)
}
