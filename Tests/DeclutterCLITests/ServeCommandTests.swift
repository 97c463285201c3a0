import DeclutterServer
import Foundation
import Synchronization
import Testing

/// `declutter serve` as a process: refusals before it listens, and a SIGTERM that ends it cleanly. The routes are
/// DeclutterServerTests' to test, in process.
@Suite struct ServeCommandTests {
    @Test(arguments: [
        (["--dataset", "airports"], "Error: --dataset airports: expected NAME=FILE or NAME=FILE,category=PROP"),
        (["--dataset", "a=x.csv,category="], "Error: --dataset a=x.csv,category=: the category property is empty; expected NAME=FILE or NAME=FILE,category=PROP"),
        (["--dataset", "a b=x.csv"], "Error: --dataset a b=x.csv: dataset name \"a b\" is not 1…64 ASCII letters, digits, '-' or '_'"),
        (["--style", "nope"], "Error: --style: no style \"nope\"; styles: airports, default, tandm"),
        (["--port", "70000"], "Error: --port must be in 0…65535, got 70000"),
        (["--workers", "0"], "Error: --workers must be in 1…256, got 0"),
        (["--log-level", "loud"], "Error: --log-level must be one of trace, debug, info, notice, warning, error, critical, got loud"),
    ])
    func badUsageExitsTwoBeforeListening(arguments: [String], message: String) throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandResult.run(["serve", "--port", "0"] + arguments, in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
        #expect(!result.stderr.contains("listening"))
    }

    @Test func aMissingDatasetFileExitsTwo() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandResult.run(["serve", "--port", "0", "--dataset", "a=missing.csv"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains("missing.csv"), "\(result.stderr)")
    }

    /// A folder, an empty path and a binary file as a dataset: each message names the option and the file, and prints
    /// none of the file's bytes (issue #37, finding 7).
    @Test func aFolderAnEmptyPathAndABinaryFileAreNamed() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("points.csv"), withIntermediateDirectories: true)
        var binary = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52])
        binary.append(Data(repeating: 0x9B, count: 64))
        try binary.write(to: folder.appendingPathComponent("image.csv"))
        let cases = [
            ("a=points.csv", "Error: --dataset a=points.csv: points.csv: is a folder; expected a point file (.geojson, .json, .csv, .tsv or .plist)\n"),
            ("a=", "Error: --dataset a=: the file name is empty; expected NAME=FILE or NAME=FILE,category=PROP\n"),
            ("a=image.csv", "Error: --dataset a=image.csv: image.csv: is not text (a binary byte at offset 0); expected CSV in UTF-8\n"),
        ]
        for (argument, message) in cases {
            let result = try CommandResult.run(["serve", "--port", "0", "--dataset", argument], in: folder)
            #expect(result.status == 2, "\(argument)")
            #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
            #expect(!result.stderr.contains("IHDR") && !result.stderr.contains("NSCocoaErrorDomain"), "\(result.stderr)")
        }
    }

    @Test func aDatasetWhosePointsLackItsCategoryPropertyIsRefused() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("zip,lat,lon\n10001,40.75,-73.99\n94103,37.77,-122.41\n".utf8).write(to: folder.appendingPathComponent("zips.csv"))
        let result = try CommandResult.run(["serve", "--port", "0", "--category", "cc", "--dataset", "zips=zips.csv"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("Error: --dataset zips=zips.csv: zips.csv: no point has the property \"cc\" to colour it by; "
                                        + "its points have \"zip\" (give NAME=FILE,category=PROP for this dataset)"), "\(result.stderr)")
    }

    @Test func eachDatasetTakesItsOwnCategoryProperty() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("zip,state,lat,lon\n10001,NY,40.75,-73.99\n94103,CA,37.77,-122.41\n".utf8).write(to: folder.appendingPathComponent("zips.csv"))
        try Data("name,cc,lat,lon\nParis,FR,48.85,2.35\nBerlin,DE,52.52,13.40\n".utf8).write(to: folder.appendingPathComponent("cities.csv"))
        let process = Process()
        process.executableURL = declutterExecutable
        process.currentDirectoryURL = folder
        process.arguments = ["serve", "--port", "0", "--category", "cc", "--dataset", "cities=cities.csv", "--dataset", "zips=zips.csv,category=state"]
        let errors = Pipe(), text = Mutex("")
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        errors.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            text.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
        defer { if process.isRunning { process.interrupt() } }
        for _ in 0..<400 where !text.withLock({ $0.contains("listening") }) { Thread.sleep(forTimeInterval: 0.05) }
        process.terminate()
        process.waitUntilExit()
        errors.fileHandleForReading.readabilityHandler = nil
        #expect(text.withLock { $0.hasPrefix("loaded cities: 2 points in style \"Default\"\nloaded zips: 2 points in style \"Default\"\n") },
                "\(text.withLock { $0 })")
        #expect(process.terminationStatus == 0)
    }

    @Test func loadsItsDatasetsListensAndEndsCleanlyOnSIGTERM() throws {
        let process = Process()
        process.executableURL = declutterExecutable
        process.arguments = ["serve", "--port", "0", "--dataset", "cycles=\(tandmPlist)", "--style", "tandm"]
        let errors = Pipe(), text = Mutex("")
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        errors.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            text.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
        defer { if process.isRunning { process.interrupt() } }
        for _ in 0..<400 where !text.withLock({ $0.contains("listening") }) { Thread.sleep(forTimeInterval: 0.05) }
        #expect(text.withLock { $0.hasPrefix("loaded cycles: 65 points in style \"TANDm\"\n") })
        #expect(text.withLock { $0.contains("listening") })
        process.terminate()
        process.waitUntilExit()
        errors.fileHandleForReading.readabilityHandler = nil
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
    }
}
