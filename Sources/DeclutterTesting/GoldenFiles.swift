import DeclutterSupport
import Foundation

/// Golden references under `Snapshots/<Suite>/<test>.<name>.<ext>`, checked against what a test produced.
///
/// ```swift
/// let goldens = try GoldenFiles(suite: "ClusterIcons")   // the package root found from #filePath
/// try goldens.verifyPNG(pngData, test: "tandm", name: "42@2x")
/// ```
/// A failure throws ``GoldenError``; both XCTest and Swift Testing report a thrown error as a failure.
public struct GoldenFiles: Sendable {
    /// The `Snapshots` folder.
    public var root: URL
    /// The suite folder under it.
    public var suite: String
    /// When references are written.
    public var recordMode: RecordMode
    /// Where the actual, expected and diff images of a failure go.
    public var artifacts: URL
    /// The pixel comparison used for PNG references.
    public var comparison: ImageComparison

    /// Creates the checker for a suite.
    ///
    /// - Parameters:
    ///   - suite: The folder under `Snapshots/`.
    ///   - filePath: A file inside the package; its nearest ancestor holding `Package.swift` is the package root.
    ///   - recordMode: Default: from `SNAPSHOT_TESTING_RECORD` (``RecordMode/fromEnvironment(_:)``).
    ///   - comparison: Default: pixelmatch's defaults and no differing pixel allowed.
    public init(
        suite: String, filePath: String = #filePath, recordMode: RecordMode? = nil,
        comparison: ImageComparison = ImageComparison()
    ) throws {
        var folder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            guard folder.pathComponents.count > 1 else { throw GoldenError("no Package.swift above \(filePath)") }
            folder.deleteLastPathComponent()
        }
        root = folder.appendingPathComponent("Snapshots")
        self.suite = suite
        self.recordMode = try recordMode ?? RecordMode.fromEnvironment()
        let environment = ProcessInfo.processInfo.environment
        artifacts =
            environment["SNAPSHOT_ARTIFACTS"].map { URL(fileURLWithPath: $0) }
            ?? folder.appendingPathComponent(".build/snapshot-artifacts")
        self.comparison = comparison
    }

    /// The reference file for a test and name.
    public func referenceURL(test: String, name: String, fileExtension: String) -> URL {
        root.appendingPathComponent(suite).appendingPathComponent("\(test).\(name).\(fileExtension)")
    }

    /// Checks PNG bytes against the reference by pixels, within ``comparison``'s tolerances.
    ///
    /// On a failure the expected, actual and diff images and a report page for them are written to
    /// `artifacts/<suite>/<test>.<name>/` (``DiffArtifacts``), and the message lists them.
    public func verifyPNG(_ data: Data, test: String, name: String) throws {
        let reference = referenceURL(test: test, name: name, fileExtension: "png")
        try verify(data, reference: reference) { expectedData in
            guard
                let difference = try DiffArtifacts.difference(
                    path: reference.lastPathComponent, expected: expectedData, actual: data,
                    comparison: comparison)
            else { return nil }
            return (difference.failureReason(threshold: comparison.pixelMatch.threshold), difference)
        }
    }

    /// Checks a text document (an SVG) against the reference after normalising line endings and trailing blanks.
    ///
    /// SVG from cairo is deterministic for a given cairo version, so text equality is exact and needs no rasteriser.
    public func verifyText(_ text: String, test: String, name: String, fileExtension: String = "svg") throws {
        let reference = referenceURL(test: test, name: name, fileExtension: fileExtension)
        try verify(Data(Self.normalise(text).utf8), reference: reference) { expectedData in
            let expected = Self.normalise(String(decoding: expectedData, as: UTF8.self))
            let actualLines = Self.normalise(text).split(separator: "\n", omittingEmptySubsequences: false)
            let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
            guard actualLines != expectedLines else { return nil }
            let line =
                Array(zip(actualLines, expectedLines)).firstIndex { $0 != $1 }
                ?? min(actualLines.count, expectedLines.count)
            return (
                "the text differs from line \(line + 1) on (\(actualLines.count) lines, reference \(expectedLines.count))",
                nil
            )
        }
    }

    /// The record-mode workflow shared by all formats; `differs` returns nil when equal, else a reason and, for images,
    /// the comparison's record.
    private func verify(_ data: Data, reference: URL, differs: (Data) throws -> (String, ImageDifference?)?) throws {
        let exists = FileManager.default.fileExists(atPath: reference.path)
        if recordMode == .all || (!exists && recordMode != .never) {
            // A reference already the same byte for byte is passed, not recorded again: the throw that asks to check a
            // recording ends the test, so mode all would otherwise rewrite a test's first golden on every run and
            // never reach its others.
            if exists, recordMode == .all, (try? Data(contentsOf: reference)) == data { return }
            try record(data, at: reference)
            throw GoldenError(
                "recorded \(reference.path) (\(exists ? "record mode all" : "no reference existed")); check it and run again"
            )
        }
        guard exists, let expected = try? Data(contentsOf: reference) else {
            throw GoldenError("no reference at \(reference.path) and \(RecordMode.environmentVariable)=never")
        }
        guard let (reason, difference) = try differs(expected) else {
            removeArtifacts(of: reference)
            return
        }
        let written: String
        if let difference {
            let folder = artifacts.appendingPathComponent(suite).appendingPathComponent(
                reference.deletingPathExtension().lastPathComponent)
            written = try DiffArtifacts.write(
                difference, expected: expected, actual: data, into: folder,
                title: "\(suite): \(reference.lastPathComponent)", details: ["reference: \(reference.path)"]
            ).message
        } else {
            written = try writeArtifacts(actual: data, expected: expected, reference: reference)
        }
        if recordMode == .failed {
            try record(data, at: reference)
            throw GoldenError("\(reference.path): \(reason); re-recorded it (record mode failed)\n\(written)")
        }
        throw GoldenError("\(reference.path): \(reason)\n\(written)")
    }

    /// Removes what an earlier failure of `reference` left in ``artifacts`` (a PNG's report folder, or a text's two
    /// files), now that it matches: a report of a failure fixed since would otherwise be taken for a current one.
    private func removeArtifacts(of reference: URL) {
        let folder = artifacts.appendingPathComponent(suite)
        let stem = reference.deletingPathExtension().lastPathComponent, ext = reference.pathExtension
        // Only the reference's own: a PNG and an SVG reference of one test and name share a stem.
        let names = ext == "png" ? [stem] : ["\(stem).actual.\(ext)", "\(stem).expected.\(ext)"]
        for name in names { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
    }

    /// Writes a reference, creating its folder.
    private func record(_ data: Data, at reference: URL) throws {
        try FileManager.default.createDirectory(
            at: reference.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileSystem.writeAtomically(data, to: reference)
    }

    /// Writes the actual and expected text files next to each other and lists their paths.
    private func writeArtifacts(actual: Data, expected: Data, reference: URL) throws -> String {
        let folder = artifacts.appendingPathComponent(suite)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let stem = reference.deletingPathExtension().lastPathComponent, ext = reference.pathExtension
        var lines: [String] = []
        for (kind, data) in [("actual", actual), ("expected", expected)] {
            let url = folder.appendingPathComponent("\(stem).\(kind).\(ext)")
            try FileSystem.writeAtomically(data, to: url)
            lines.append("  \(kind): \(url.path)")
        }
        return lines.joined(separator: "\n")
    }

    /// Unix line endings, no trailing blanks on lines, one final newline.
    static func normalise(_ text: String) -> String {
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(
            separator: "\n", omittingEmptySubsequences: false)
        let trimmed = lines.map { line -> Substring in
            var line = line
            while line.last == " " || line.last == "\t" { line = line.dropLast() }
            return line
        }
        var result = trimmed.joined(separator: "\n")
        while result.hasSuffix("\n") { result.removeLast() }
        return result + "\n"
    }
}
