import Foundation

/// A command's result on standard output, written so that a failed write (a full disk, a closed pipe) is an error
/// rather than lost without a word.
package enum StandardOutput {
    /// Writes `text` and a newline.
    package static func print(_ text: String) throws {
        do {
            try FileHandle.standardOutput.write(contentsOf: Data((text + "\n").utf8))
        } catch {
            throw CommandError("cannot write the result to standard output (\(error.localizedDescription))")
        }
    }
}
