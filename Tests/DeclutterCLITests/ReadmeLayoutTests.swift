import DeclutterClustering
import DeclutterTesting
import Foundation
import Testing

/// The README's Layout table against the package's manifest: every module a row, each row naming exactly the modules
/// it depends on, so the graph a reader sees is the one that builds.
@Suite struct ReadmeLayoutTests {
    /// A module and what it depends on, by name.
    struct Module: Equatable, CustomStringConvertible {
        var name: String
        var dependencies: [String]
        var description: String { "\(name) → \(dependencies.isEmpty ? "—" : dependencies.joined(separator: ", "))" }
    }

    /// The library and executable modules of `Package.swift`, as `swift package dump-package` reads it.
    func manifestModules() throws -> [Module] {
        // A scratch path of its own: the package's .build is locked by the `swift test` running this.
        let scratch = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try CommandResult.run(
            ["swift", "package", "--scratch-path", scratch.path, "dump-package"], in: packageRoot,
            executable: URL(fileURLWithPath: "/usr/bin/env"))
        try #require(result.status == 0, "swift package dump-package: \(result.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let targets = try #require(root["targets"] as? [[String: Any]])
        return try targets.filter { ($0["type"] as? String) != "test" }.map { target in
            let name = try #require(target["name"] as? String)
            // Each dependency is {"byName": [name, …]}, {"product": [name, package, …]} or {"target": [name, …]}.
            let dependencies = (target["dependencies"] as? [[String: [Any]]] ?? []).compactMap {
                $0.values.first?.first as? String
            }
            return Module(name: name, dependencies: dependencies.sorted())
        }
    }

    /// The rows of the README's `## Layout` table: the module in the first cell, its dependencies (in backticks, or —)
    /// in the second.
    func readmeModules() throws -> [Module] {
        let markdown = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section =
            try #require(markdown.components(separatedBy: "\n## Layout\n").dropFirst().first)
            .components(separatedBy: "\n## ").first ?? ""
        return section.split(separator: "\n").filter { $0.hasPrefix("| `") }.map { row in
            let cells = row.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            func names(_ cell: String) -> [String] {
                cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
                    .map { String($0.element) }
            }
            return Module(
                name: names(cells[1]).first ?? "", dependencies: names(cells.count > 2 ? cells[2] : "").sorted())
        }
    }

    @Test func theReadmeGraphIsThePackages() throws {
        let manifest = try manifestModules(), readme = try readmeModules()
        #expect(manifest.count >= 10)
        #expect(readme.map(\.name).sorted() == manifest.map(\.name).sorted(), "modules in the README's Layout table")
        for module in manifest {
            let row = readme.first { $0.name == module.name }
            #expect(row == module, "README row \(row.map(\.description) ?? "missing"), Package.swift \(module)")
        }
    }

    /// Front ends only at the top: no module but `declutter` uses the commands, no library uses a front end, and the
    /// domain and support layers reach no C library but zlib and libdeflate (no Cairo, Pango, libcurl or SQLite).
    @Test func dependenciesPointOneWay() throws {
        let modules = try manifestModules()
        let frontEnds: Set = [
            "DeclutterCLI", "DeclutterCommandLine", "DeclutterServer", "declutter", "declutter-bench",
        ]
        for module in modules where module.dependencies.contains("DeclutterCLI") {
            #expect(module.name == "declutter", "\(module.name) uses DeclutterCLI")
        }
        for module in modules where !frontEnds.contains(module.name) {
            #expect(Set(module.dependencies).isDisjoint(with: frontEnds), "\(module.name) uses a front end")
        }
        let byName = Dictionary(uniqueKeysWithValues: modules.map { ($0.name, $0.dependencies) })
        func reach(_ name: String) -> Set<String> {
            var seen: Set<String> = [], stack = [name]
            while let next = stack.popLast() {
                for dependency in byName[next] ?? [] where seen.insert(dependency).inserted { stack.append(dependency) }
            }
            return seen
        }
        let lower = [
            "DeclutterSupport", "DeclutterDeflate", "DeclutterPNG", "DeclutterGeometry", "DeclutterClustering",
            "DeclutterPlacement",
            "DeclutterStyle", "DeclutterInput", "DeclutterMapContent",
        ]
        for name in lower {
            #expect(
                reach(name).isDisjoint(with: ["CCairo", "CCurl", "CSQLite", "DeclutterRender"]),
                "\(name) reaches \(reach(name).sorted())")
        }
    }
}
