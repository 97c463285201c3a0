import DeclutterCommandLine
import DeclutterInput
import DeclutterMapContent
import DeclutterPlacement
import DeclutterRender
import DeclutterStyle
import DeclutterTesting
import Foundation
import Testing

/// The README's commands, read once: a command that no longer runs as shown fails here, not in a reader's terminal.
let readmeCommands: [ReadmeCommand] = {
    // A README that cannot be read gives no commands; `readmeShowsEveryCommand` then fails and says so.
    guard let markdown = try? String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    else { return [] }
    return ReadmeCommand.parse(markdown: markdown)
}()

/// Runs every `declutter` command the README shows, from a scratch copy of `Examples/` and `Styles/`, as the README
/// says to run them from the package root.
@Suite struct ReadmeExamplesTests {
    @Test(arguments: readmeCommands.filter { $0.skipReason == nil })
    func readmeCommandRuns(_ command: ReadmeCommand) throws {
        let name = command.testDescription
        if let problem = command.problem { Issue.record("\(name): \(problem)") }
        guard let arguments = command.arguments else { return }
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for copied in ["Examples", "Styles"] {
            try FileManager.default.copyItem(
                at: packageRoot.appendingPathComponent(copied), to: folder.appendingPathComponent(copied))
        }
        let result = try CommandResult.run(arguments, in: folder)
        #expect(
            command.allowedStatuses.contains(result.status),
            "\(name): exit \(result.status), expected \(command.allowedStatuses.sorted())\n\(result.stderr)")
        if let expected = command.expectedOutput {
            // What a terminal shows of a command that writes to one stream only; standard error follows standard
            // output.
            let printed = result.stdout + result.stderr
            #expect(printed == expected.map { $0 + "\n" }.joined(), "\(name): printed\n\(printed)")
        }
    }

    /// Every command of the table at the top is shown and run, and only network commands are skipped.
    @Test func readmeShowsEveryCommand() {
        let run = readmeCommands.filter { $0.skipReason == nil }
        #expect(
            Set(run.compactMap { $0.arguments?.first }) == [
                "--version", "cluster", "demo", "diff", "marker", "place", "render", "sprites", "tiles",
            ])
        #expect(
            readmeCommands.filter { $0.skipReason != nil }.map(\.skipReason)
                == [
                    "needs the network", "a server: runs until stopped (DeclutterServerTests make requests to one)",
                    "a server: runs until stopped (DeclutterServerTests make requests to one)",
                ])
        #expect(run.filter { $0.expectedOutput != nil }.count == 5)
    }

    @Test func shellLinesAreJoinedSplitAndTheirCommentsRead() {
        let markdown = """
            ```sh
            swift build
            # a whole-line comment
            declutter render --input 'a b.csv' \\
                --attribution "© \\"OSM\\"" --output x.png   # exit 3: a comment after the command
            declutter diff a.png b.png#not-a-comment
            declutter render --tiles 'https://t/{z}/{x}/{y}.png' --output y.png
            declutter bench markers
            declutter marker --counts a=1 | head
            ```

            ```text
            $ declutter place --input s.json
            {"visible":[]}
              indented
            ```
            """
        let commands = ReadmeCommand.parse(markdown: markdown)
        #expect(commands.map(\.line) == [4, 6, 7, 8, 9, 13])
        #expect(
            commands[0].arguments == [
                "render", "--input", "a b.csv", "--attribution", "© \"OSM\"", "--output", "x.png",
            ])
        #expect(commands[0].text == #"declutter render --input 'a b.csv' --attribution "© \"OSM\"" --output x.png"#)
        #expect(commands[0].allowedStatuses == [3])
        #expect(commands[1].arguments == ["diff", "a.png", "b.png#not-a-comment"])
        #expect(commands[1].allowedStatuses == [0, 1])
        #expect(
            commands.map(\.skipReason) == [
                nil, nil, "needs the network", "a benchmark: measured, not tested", nil, nil,
            ])
        #expect(commands[4].problem == "unquoted | needs a shell")
        #expect(commands[5].arguments == ["place", "--input", "s.json"])
        #expect(commands[5].expectedOutput == [#"{"visible":[]}"#, "  indented"])
        #expect(commands[5].allowedStatuses == [0])
    }
}
