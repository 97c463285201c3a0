import ArgumentParser
import DeclutterPlacement
import DeclutterSupport
import Foundation

extension ParsableCommand {
    /// Runs the command line as `Self`'s and maps failures to the documented exit codes: 0 success, 1 a failed
    /// comparison (thrown as `ExitCode(1)`), 2 bad usage or bad input.
    /// An interrupt (Ctrl-C, SIGTERM) ends the command without leaving temporary files behind.
    package static func runAsMain() -> Never {
        TemporaryFiles.removeOnInterrupt()
        do {
            var command = try parseAsRoot()
            do {
                try command.run()
            } catch let error as ValidationError {
                // Thrown while running, it would be printed with the root's usage; the usage of the command that ran
                // helps.
                let type = Swift.type(of: command)
                let root = configuration.commandName ?? "declutter"
                let name = type == Self.self ? "" : type.configuration.commandName.map { " \($0)" } ?? ""
                let text =
                    "Error: \(error.message)\nUsage: \(usageString(for: type))\n  See '\(root)\(name) --help' for more information.\n"
                StandardError.write(text)
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
            StandardError.write("\(fullMessage(for: error))\n")
            Foundation.exit((error as? any DeclutterError)?.kind.exitCode ?? 2)
        }
    }
}

extension FailureKind {
    /// The exit code a failure of this kind ends a command with: the one place the command line maps kinds to codes.
    /// Every kind is 2, bad usage or bad input in the documented sense (1 is kept for a comparison that failed).
    package var exitCode: Int32 { 2 }
}
