import ArgumentParser
import DeclutterRender
import Foundation

/// The `declutter` command: one subcommand per job.
package struct Declutter: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "declutter",
        abstract: "Cluster map points, place markers the way MapKit does, and draw them with Cairo and Pango.",
        version: "declutter \(version) (\(DrawingLibraries.versions))",
        subcommands: [RenderCommand.self, DemoCommand.self, MarkerCommand.self, SpritesCommand.self, ClusterCommand.self, PlaceCommand.self,
                      DiffCommand.self, BenchForwarding.self])

    /// The release this binary was built from.
    package static let version = "0.5.0"

    package init() {}
}

extension ParsableCommand {
    /// Runs the command line as `Self`'s and maps failures to the documented exit codes: 0 success, 1 a failed
    /// comparison (thrown as `ExitCode(1)`), 2 bad usage or bad input.
    package static func runAsMain() -> Never {
        do {
            var command = try parseAsRoot()
            do {
                try command.run()
            } catch let error as ValidationError {
                // Thrown while running, it would be printed with the root's usage; the usage of the command that ran helps.
                let type = Swift.type(of: command)
                let root = configuration.commandName ?? "declutter"
                let name = type == Self.self ? "" : type.configuration.commandName.map { " \($0)" } ?? ""
                let text = "Error: \(error.message)\nUsage: \(usageString(for: type))\n  See '\(root)\(name) --help' for more information.\n"
                FileHandle.standardError.write(Data(text.utf8))
                Foundation.exit(2)
            }
            Foundation.exit(0)
        } catch let exit as ExitCode {
            Foundation.exit(exit.rawValue)
        } catch {
            if exitCode(for: error) == .success {
                // Help and version requests end here with their text on stdout.
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            FileHandle.standardError.write(Data("\(fullMessage(for: error))\n".utf8))
            Foundation.exit(2)
        }
    }
}

/// Bad input found while running a command (not while parsing its arguments): printed without usage, exit 2.
package struct CommandError: Error, CustomStringConvertible {
    /// What was wrong, naming the file or value.
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// A command's result on standard output, written so that a failed write (a full disk, a closed pipe) is an error
/// rather than lost without a word.
enum StandardOutput {
    /// Writes `text` and a newline.
    static func print(_ text: String) throws {
        do {
            try FileHandle.standardOutput.write(contentsOf: Data((text + "\n").utf8))
        } catch {
            throw CommandError("cannot write the result to standard output (\(error.localizedDescription))")
        }
    }
}
