import Foundation
import Testing

/// The README's Swift blocks, read once.
let readmeSnippets: [ReadmeSnippet] = {
    // A README that cannot be read gives no snippets; `readmeHasSwiftSnippets` then fails and says so.
    guard let markdown = try? String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    else { return [] }
    return ReadmeSnippet.parse(markdown: markdown)
}()

/// Every Swift block of the README shows its imports, names files that exist, and compiles against the package's
/// current API, so that a renamed type or argument fails here rather than in a reader's project.
@Suite struct ReadmeSwiftSnippetsTests {
    @Test func readmeHasSwiftSnippets() {
        #expect(readmeSnippets.count >= 10)
    }

    @Test(arguments: readmeSnippets)
    func snippetShowsItsImportsAndNamesFilesThatExist(_ snippet: ReadmeSnippet) {
        #expect(!snippet.imports.isEmpty, "\(snippet.testDescription): no import shown")
        if snippet.code.contains("URL(") || snippet.code.contains("Data(") {
            #expect(
                snippet.imports.contains("Foundation"),
                "\(snippet.testDescription): uses Foundation without importing it")
        }
        for path in snippet.packagePaths {
            #expect(
                FileManager.default.fileExists(atPath: packageRoot.appendingPathComponent(path).path),
                "\(snippet.testDescription): \(path) does not exist")
        }
    }

    @Test(arguments: readmeSnippets)
    func snippetTypeChecks(_ snippet: ReadmeSnippet) throws {
        let result = try snippet.typecheck()
        #expect(result.status == 0, "\(snippet.testDescription) does not compile:\n\(result.stderr)")
    }

    @Test func swiftBlocksAreFoundBetweenOtherBlocks() {
        let markdown = """
            ```sh
            declutter demo
            ```
            ```swift
            import Foundation
            let url = URL(fileURLWithPath: "Examples/scene.json")
            ```
            text
            ```json
            {"a": 1}
            ```
            """
        let snippets = ReadmeSnippet.parse(markdown: markdown)
        #expect(snippets.map(\.line) == [4])
        #expect(snippets.first?.imports == ["Foundation"])
        #expect(snippets.first?.packagePaths == ["Examples/scene.json"])
    }
}
