import DeclutterInput
import DeclutterTesting
import Foundation
import Testing

/// One `declutter …` command shown in a Markdown file, as `ReadmeExamplesTests` runs it.
///
/// Commands come from ```` ```sh ```` blocks (lines starting with `declutter `, continued over lines ending in `\`, a
/// trailing `# exit N` comment giving the status) and from ```` ```text ```` blocks (a `$ declutter …` line followed by
/// the output it prints).
struct ReadmeCommand: Sendable, CustomTestStringConvertible {
    /// The line of the Markdown file the command starts on, from 1.
    var line: Int
    /// The command as written, continuation lines joined and comments dropped.
    var text: String
    /// The words after `declutter`, split as a POSIX shell splits them; nil when `problem` says why they cannot be.
    var arguments: [String]?
    /// Why the command cannot be run by the test (a quote left open, a pipe or redirection a shell would need).
    var problem: String?
    /// The exit status a `# exit N` comment names; nil: 0, or 0 or 1 for `declutter diff`.
    var expectedStatus: Int32?
    /// The lines a ```` ```text ```` block shows after the command; nil in ```` ```sh ```` blocks.
    var expectedOutput: [String]?
    /// Why the test does not run it (the network, a benchmark); nil when it does.
    var skipReason: String?

    var testDescription: String { "README.md:\(line): \(text)" }

    /// The statuses the command may exit with: the one its comment names, else 0, else for `diff` 0 or 1 (same or
    /// differing images are both answers), and 2 for a shown output that is an error message.
    var allowedStatuses: Set<Int32> {
        if let expectedStatus { return [expectedStatus] }
        if expectedOutput?.first?.hasPrefix("Error: ") == true { return [2] }
        return arguments?.first == "diff" ? [0, 1] : [0]
    }

    /// The commands of the ```` ```sh ```` and ```` ```text ```` blocks of `markdown`, in order, skipped ones included.
    static func parse(markdown: String) -> [ReadmeCommand] {
        var commands: [ReadmeCommand] = []
        var fence: String?  // the language of the block we are in
        var pending: (line: Int, text: String)?  // a sh command continued on the next line
        var shown: ReadmeCommand?  // a text block's command, collecting its output
        func finishShown() {
            if let command = shown { commands.append(command) }
            shown = nil
        }
        for (offset, rawLine) in markdown.components(separatedBy: "\n").enumerated() {
            let number = offset + 1
            let trimmed = rawLine.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                if fence == nil {
                    fence = String(trimmed.dropFirst(3)).trimmingCharacters(in: .whitespaces)
                } else {
                    finishShown()
                    pending = nil
                    fence = nil
                }
                continue
            }
            switch fence {
            case "sh":
                var text = pending.map { $0.text + " " + trimmed } ?? trimmed
                let start = pending?.line ?? number
                if text.hasSuffix("\\") {
                    text.removeLast()
                    pending = (start, text.trimmingCharacters(in: .whitespaces))
                    continue
                }
                pending = nil
                if let command = shellCommand(text, line: start) { commands.append(command) }
            case "text":
                if trimmed.hasPrefix("$ ") {
                    finishShown()
                    shown = shellCommand(String(trimmed.dropFirst(2)), line: number)
                    shown?.expectedOutput = []
                } else if shown != nil {
                    // Output is compared exactly, so only the line break is taken off.
                    shown?.expectedOutput?.append(rawLine)
                }
            default:
                continue
            }
        }
        return commands
    }

    /// A `declutter …` command from one logical shell line, or nil for any other line (comments, `swift build`, …).
    static func shellCommand(_ line: String, line number: Int) -> ReadmeCommand? {
        guard line.hasPrefix("declutter ") else { return nil }
        let (words, comment, problem) = split(line)
        let text = commentStart(in: line).map { String(line[..<$0]).trimmingCharacters(in: .whitespaces) } ?? line
        var command = ReadmeCommand(
            line: number, text: text, arguments: words.map { Array($0.dropFirst()) }, problem: problem)
        if let comment, let match = comment.firstMatch(of: /^exit (\d+)\b/), let status = Int32(match.1) {
            command.expectedStatus = status
        }
        if line.contains("http://") || line.contains("https://") {
            command.skipReason = "needs the network"
        } else if words?.dropFirst().first == "bench" {
            command.skipReason = "a benchmark: measured, not tested"
        } else if words?.dropFirst().first == "serve" {
            command.skipReason = "a server: runs until stopped (DeclutterServerTests make requests to one)"
        }
        return command
    }

    /// Where an unquoted ` #` comment starts in `line`, if it has one.
    static func commentStart(in line: String) -> String.Index? {
        var quote: Character?
        var previous: Character = " "
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "#" && previous.isWhitespace {
                return index
            }
            previous = character
            index = line.index(after: index)
        }
        return nil
    }

    /// Splits `line` into words as a POSIX shell does for the quoting the README uses — single quotes, double quotes
    /// (with `\"` and `\\` inside), backslash escapes — and returns the text of a trailing comment. Characters the
    /// test cannot stand in for a shell for (pipes, redirections, variables, globs) are a problem, not a guess.
    static func split(_ line: String) -> (words: [String]?, comment: String?, problem: String?) {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var characters = Array(line)[...]
        while let character = characters.popFirst() {
            switch quote {
            case "'":
                if character == "'" { quote = nil } else { word.append(character) }
            case "\"":
                if character == "\"" {
                    quote = nil
                } else if character == "\\", let next = characters.first, "\"\\$`".contains(next) {
                    word.append(next)
                    characters.removeFirst()
                } else if character == "$" || character == "`" {
                    return (nil, nil, "\(character) in double quotes needs a shell")
                } else {
                    word.append(character)
                }
            default:
                if character.isWhitespace {
                    if inWord { words.append(word) }
                    word = ""
                    inWord = false
                } else if character == "#" && !inWord {
                    let comment = String(characters).trimmingCharacters(in: .whitespaces)
                    return (words, comment, nil)
                } else if character == "'" || character == "\"" {
                    quote = character
                    inWord = true
                } else if character == "\\" {
                    guard let next = characters.popFirst() else { return (nil, nil, "a backslash at the end") }
                    word.append(next)
                    inWord = true
                } else if "|&;<>()$`*?[]{}~".contains(character) {
                    return (nil, nil, "unquoted \(character) needs a shell")
                } else {
                    word.append(character)
                    inWord = true
                }
            }
        }
        if let quote { return (nil, nil, "the \(quote) quote is not closed") }
        if inWord { words.append(word) }
        return (words, nil, nil)
    }
}
