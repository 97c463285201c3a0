import ArgumentParser
import DeclutterClustering
import DeclutterCommandLine
import DeclutterPlacement
import DeclutterRender
import DeclutterSupport
import DeclutterTesting
import Foundation
import Synchronization

extension DiffCommand {
    /// Two folders: a line per image that is not unchanged, the counts, the outputs, and `--update`.
    func compareFolders() throws {
        if diffOutput != nil {
            throw ValidationError("--diff-output writes one diff image; for folders, --report DIR holds them all")
        }
        let expected = URL(fileURLWithPath: first), actual = URL(fileURLWithPath: second)
        for (inner, outer) in [(second, first), (first, second)] where FileSystem.isInside(inner, outer) {
            guard FileSystem.isInside(outer, inner) else {
                throw CommandError(
                    "\(inner) lies inside \(outer): its images would be compared as the other folder's too (and "
                        + "--update --prune would remove them); keep the expected and actual folders apart")
            }
        }
        try checkOutputs(folders: [first, second])
        // Screenshots kept as JPEG or WebP would otherwise make a green run of nothing compared; a mask that masks
        // nothing leaves its image's changes counted, silently.
        let strays = try [(first, expected, true), (second, actual, false)].map { name, folder, isExpected in
            (name, isExpected, try FolderComparison.strayFiles(in: folder, besideImages: isExpected))
        }
        for (name, _, files) in strays where !files.otherImages.isEmpty {
            let others = files.otherImages
            StandardError.write(
                "warning: \(name): \(others.count == 1 ? "1 image is" : "\(others.count) images are") not PNG, "
                    + "JPEG or WebP (\(others.nameList(limit: 3))) and not compared: convert them to PNG\n")
        }
        for (name, isExpected, files) in strays where !files.unusedMasks.isEmpty {
            let unused = files.unusedMasks
            let what = unused.count == 1 ? "1 mask masks" : "\(unused.count) masks mask"
            let why =
                isExpected ? "no image of its name is beside it" : "masks are read beside the expected images only"
            StandardError.write("warning: \(name): \(what) nothing (\(unused.nameList(limit: 3))): \(why)\n")
        }
        let progress = DiffProgress()
        // An image that cannot be read is a record of its own, so that the report, JSON and JUnit show it beside the
        // rest; the run still ends with exit 2 and accepts nothing.
        var folders = try folderComparison(drawsDiffs: report != nil)
        folders.recordsUnreadableImages = true
        let differences = try folders.compare(expected: expected, actual: actual) {
            done, total in
            progress.update(done, of: total)
        }
        progress.finish()
        try writeOutputs(differences, expected: expected, actual: actual, json: nil, extraFiles: [], pair: nil)
        if !documentOnStandardOutput {
            for difference in differences where difference.status != .unchanged {
                // "new: n.png (4×4 px)", not "new: n.png: new (4×4 px)": the line starts with the status already.
                let status = difference.status.rawValue, summary = difference.summary
                let detail =
                    summary.hasPrefix(status + " ") ? " " + summary.dropFirst(status.count + 1) : ": " + summary
                try StandardOutput.print("\(status): \(difference.path.escapedForTerminal)\(detail)")
            }
            let counts = ImageDifference.Status.allCases.compactMap { status -> String? in
                let count = differences.filter { $0.status == status }.count
                return count > 0 || status == .changed ? "\(count) \(status.rawValue)" : nil
            }
            try StandardOutput.print(
                "\(CountFormatter.counted(differences.count, "image")): " + counts.joined(separator: ", ")
                    + (report.map { "; report: \($0)/index.html" } ?? ""))
        }
        warnAboutMasks(differences)
        let problems = differences.compactMap { $0.status == .unreadable ? $0.problem : nil }
        if !problems.isEmpty {
            let kept = update ? " (nothing was updated)" : ""
            throw CommandError(
                problems.count == 1
                    ? problems[0] + kept
                    : "\(problems.count) images could not be compared\(kept):\n"
                        + problems.map { "  " + $0 }.joined(separator: "\n"))
        }
        try applyUpdate(differences, expected: expected, actual: actual, pair: nil)
        // Accepted images pass; deleted ones left without --prune still fail, as the next comparison would say.
        let left = differences.filter { $0.status.fails && (!update || ($0.status == .deleted && !prune)) }
        if update, !left.isEmpty {
            StandardError.write(
                "\(CountFormatter.counted(left.count, "deleted image")) left in \(first) (--prune removes them)\n")
        }
        if !left.isEmpty { throw ExitCode(1) }
    }

    /// Warns, on standard error, about masks that cannot be what was meant: masks that ignore every pixel of an image
    /// (a mask image without transparency ignores all), and `--ignore` rectangles that miss every image compared.
    func warnAboutMasks(_ differences: [ImageDifference]) {
        let sizes = differences.compactMap { $0.expectedSize ?? $0.actualSize }
        for region in ignoredRegions {
            let r = region.rectangle
            guard !sizes.isEmpty,
                !sizes.contains(where: { r[0] < $0[0] && r[1] < $0[1] && r[0] + r[2] > 0 && r[1] + r[3] > 0 })
            else { continue }
            StandardError.write(
                "warning: --ignore \(region.defaultValueDescription) lies outside "
                    + (sizes.count == 1 ? "the \(ImageDifference.sizeText(sizes[0])) px image" : "every image")
                    + "; it ignores nothing\n")
        }
        let blind = differences.filter { difference in
            guard let size = difference.expectedSize, difference.actualSize == size else { return false }
            return size[0] * size[1] > 0 && difference.ignoredPixels == size[0] * size[1]
        }
        guard let example = blind.first else { return }
        StandardError.write(
            "warning: the masks ignore every pixel of \(blind.count == 1 ? example.path : "\(blind.count) images (\(example.path), …)"), "
                + "so no difference there can show (a mask ignores the pixels whose alpha is above 0: an image "
                + "without transparency ignores all)\n")
    }

    /// Fails before any work unless every output can be written and none would destroy an input: the report folder
    /// must not hold the compared folders, files or mask (replacing it would delete them) and must be new, empty or
    /// a report; JSON and JUnit must not land on a compared image, and their folders must exist.
    ///
    /// - Parameter folders: the compared folders, or the two images' files.
    func checkOutputs(folders: [String]) throws {
        let names =
            folders.contains { FileSystem.item(atPath: $0) == .folder }
            ? ["expected folder", "actual folder"] : ["first image", "second image"]
        let inputs = zip(names, folders).map { ($0, $1) } + (mask.map { [("--mask", $0)] } ?? [])
        let files = [
            ("--json", json == "-" ? nil : json), ("--junit", junit == "-" ? nil : junit),
            ("--diff-output", diffOutput),
        ]
        .compactMap { name, path in path.map { (option: name, path: $0) } }
        try FileSystem.refuseOverwriting(files, inputs: inputs)
        if let report, let (option, path) = files.first(where: { FileSystem.isInside($0.path, report) }) {
            throw CommandError(
                "\(option) \(path) is inside the --report folder \(report), which is replaced whole on every run; "
                    + "write it beside the report")
        }
        for (option, path) in files {
            for (name, folder) in inputs
            where FileSystem.item(atPath: folder) == .folder && FileSystem.isInside(path, folder)
                && path.lowercased().hasSuffix(".png")
            {
                throw CommandError("\(option) \(path) would overwrite an image of the \(name) \(folder)")
            }
            guard !FileSystem.isStream(path) else { continue }
            if FileSystem.item(atPath: path) == .folder {
                throw OutputError(path: path, reason: "is a folder, not a file")
            }
            try FileSystem.requireWritableFolder(for: path)
        }
        guard let report else { return }
        for (name, folder) in zip(["expected", "actual"], folders)
        where FileSystem.item(atPath: folder) == .folder && FileSystem.isInside(report, folder) {
            throw CommandError(
                "--report \(report) is inside the \(name) folder \(folder), where its images would be compared next time; "
                    + "choose a folder outside both")
        }
        for (name, path) in inputs where FileSystem.isInside(path, report) {
            throw CommandError(
                "--report \(report) holds the \(name) \(path): the report replaces its folder whole, which would delete "
                    + "it; choose a folder of its own")
        }
        try ComparisonReport.checkFolder(URL(fileURLWithPath: report))
    }

    /// Writes the report, JSON and JUnit the options ask for (and, for a pair, the diff image). The files are written
    /// together, each whole or not at all; the report folder is swapped in whole.
    ///
    /// - Parameters:
    ///   - json: for a pair, its one-object JSON; nil writes the folder document.
    ///   - pair: the two files of a pair, whose names may differ.
    func writeOutputs(
        _ differences: [ImageDifference], expected: URL, actual: URL, json pairJSON: String?,
        extraFiles: [(Data, URL)], pair: (URL, URL)?
    ) throws {
        let document =
            pairJSON ?? ImageDifference.jsonDocument(differences, expected: first, actual: second, reportPath: report)
        var files = extraFiles
        if let json, json != "-" { files.append((Data(document.utf8), URL(fileURLWithPath: json))) }
        let junitDocument = junit.map { _ in
            ImageDifference.junitDocument(
                differences, suite: "declutter diff \(first) \(second)", reportPath: report)
        }
        if let junit, let junitDocument, junit != "-" {
            files.append((Data(junitDocument.utf8), URL(fileURLWithPath: junit)))
        }
        if let report {
            let details = [
                "expected: \(first)", "actual: \(second)",
                "threshold \(threshold)"
                    + (maxPixels > 0 ? ", up to \(maxPixels) pixels" : "")
                    + (maxRatio > 0 ? ", up to \(maxRatio * 100) %" : "")
                    + (ignoredRegions.isEmpty
                        ? "" : ", ignoring " + ignoredRegions.map(\.defaultValueDescription).joined(separator: " "))
                    + (mask.map { ", mask \($0)" } ?? ""),
            ]
            let page = ComparisonReport(title: "declutter diff", details: details),
                folder = URL(fileURLWithPath: report)
            if let (expectedFile, actualFile) = pair {
                try page.write(
                    differences, expectedFile: { _ in expectedFile }, actualFile: { _ in actualFile }, to: folder)
            } else {
                try page.write(differences, expected: expected, actual: actual, to: folder)
            }
        }
        try FileSystem.writeAllAtomically(files)
        if json == "-" { try StandardOutput.print(String(document.dropLast())) }
        if junit == "-", let junitDocument { try StandardOutput.print(String(junitDocument.dropLast())) }
    }

    /// With `--update`, copies the actual images that failed over the expected ones (and with `--prune` removes the
    /// deleted ones) and says what it changed.
    func applyUpdate(_ differences: [ImageDifference], expected: URL, actual: URL, pair: (URL, URL)?) throws {
        guard update else { return }
        let changes: GoldenUpdate
        if let (expectedFile, actualFile) = pair {
            changes = GoldenUpdate(
                copies: differences.first?.status.fails == true ? [(actualFile, expectedFile)] : [], removals: [])
        } else {
            changes = GoldenUpdate(differences, expected: expected, actual: actual, prune: prune)
        }
        let lines = try changes.apply()
        // With `--json -` or `--junit -` standard output is the document alone: what was changed goes to standard error.
        func say(_ line: String) throws {
            if documentOnStandardOutput { StandardError.write(line + "\n") } else { try StandardOutput.print(line) }
        }
        for line in lines { try say(line.escapedForTerminal) }
        try say(
            lines.isEmpty
                ? "nothing to update"
                : "updated \(changes.copies.count) and removed \(changes.removals.count) expected images")
    }
}

/// The folder comparison's progress bar (on a terminal only), drawn from the comparing threads one at a time.
private final class DiffProgress: Sendable {
    private let bar = Mutex(ProgressBar(label: "diff"))
    func update(_ done: Int, of total: Int) { bar.withLock { $0.update(done, of: total) } }
    func finish() { bar.withLock { $0.finish() } }
}
