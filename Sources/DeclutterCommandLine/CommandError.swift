import Foundation

/// Bad input found while running a command (not while parsing its arguments): printed without usage, exit 2.
package struct CommandError: Error, CustomStringConvertible {
    /// What was wrong, naming the file or value.
    package var description: String
    package init(_ description: String) { self.description = description }
}
