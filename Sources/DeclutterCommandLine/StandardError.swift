import DeclutterSupport
import Foundation

/// Messages for the user on standard error, with control characters from files and servers escaped line by line,
/// so that a category name or a tile's bytes quoted in a message cannot drive the terminal.
package enum StandardError {
    /// Writes `text` as it is, but for its control characters (line breaks are kept).
    package static func write(_ text: String) {
        let safe = text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0).escapedForTerminal }
            .joined(separator: "\n")
        FileHandle.standardError.write(Data(safe.utf8))
    }
}
