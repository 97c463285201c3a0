import DeclutterRender
import DeclutterSupport
import DeclutterTesting
import Foundation
import SnapshotTesting
import Synchronization

#if canImport(Testing)
    import Testing
#endif

extension Snapshotting where Value == Data, Format == Data {
    /// PNG data compared as pixelmatch does, within the comparison's tolerances; works on Linux.
    ///
    /// ```swift
    /// assertSnapshot(of: pngData, as: .pixelmatchPNG())
    /// ```
    /// On a failure the reference, the actual image and pixelmatch's diff are written to `artifacts`
    /// (default `$SNAPSHOT_ARTIFACTS`, else the temporary folder) with a report page, in a folder named for the test
    /// (under Swift Testing) and the reference, which the next failure of the same snapshot replaces; their paths are
    /// in the failure message.
    public static func pixelmatchPNG(_ comparison: ImageComparison = ImageComparison(), artifacts: URL? = nil)
        -> Snapshotting
    {
        Snapshotting(pathExtension: "png", diffing: .pixelmatchPNG(comparison, artifacts: artifacts))
    }
}

extension Snapshotting where Value == RGBAImage, Format == Data {
    /// A decoded image, stored as PNG and compared as pixelmatch does.
    public static func pixelmatchImage(_ comparison: ImageComparison = ImageComparison(), artifacts: URL? = nil)
        -> Snapshotting
    {
        Snapshotting<Data, Data>.pixelmatchPNG(comparison, artifacts: artifacts).pullback { image in
            (try? image.pngData()) ?? Data()
        }
    }
}

extension Snapshotting where Value == Canvas, Format == Data {
    /// A rendered PNG canvas, stored as PNG and compared as pixelmatch does. A canvas of another format is stored as
    /// its document (a strategy cannot refuse a value), and its comparison fails saying so.
    public static func pixelmatchCanvas(_ comparison: ImageComparison = ImageComparison(), artifacts: URL? = nil)
        -> Snapshotting
    {
        Snapshotting<Data, Data>.pixelmatchPNG(comparison, artifacts: artifacts).pullback { canvas in
            (try? canvas.data()) ?? Data()
        }
    }
}

extension Diffing where Value == Data {
    /// Compares PNG data with ``ImageComparison`` and writes the failure's images where a person can open them.
    public static func pixelmatchPNG(_ comparison: ImageComparison, artifacts: URL? = nil) -> Diffing {
        // swift-format-ignore: OnlyOneTrailingClosureArgument
        .diff(toData: { $0 }, fromData: { $0 }) { reference, actual in
            let name = SnapshotArtifacts.testName()
            let folder = SnapshotArtifacts.folder(name: name, reference: reference, root: artifacts)
            guard reference != actual else {
                SnapshotArtifacts.remove(folder)
                return nil
            }
            let message: String
            var difference: ImageDifference?
            do {
                difference = try DiffArtifacts.difference(
                    path: name + ".png", expected: reference, actual: actual, comparison: comparison)
                guard let difference else {
                    SnapshotArtifacts.remove(folder)
                    return nil
                }
                message = difference.failureReason(threshold: comparison.pixelMatch.threshold)
            } catch {
                message = "\(error)" + Self.notPNGHint(reference: reference, actual: actual)
            }
            let record = difference ?? ImageDifference(path: name + ".png", status: .changed)
            let paths = SnapshotArtifacts.write(
                record, name: name, reference: reference, actual: actual, into: folder)
            var attachments: [DiffAttachment] = [
                .data(reference, name: "reference.png"), .data(actual, name: "actual.png"),
            ]
            if let diffPNG = difference?.diffPNG { attachments.append(.data(diffPNG, name: "difference.png")) }
            return (message + paths, attachments)
        }
    }

    /// What to add when one side is an SVG or PDF document rather than PNG, as a canvas of another format gives: the
    /// strategy stores what it is given, and only the comparison finds it is no image.
    static func notPNGHint(reference: Data, actual: Data) -> String {
        func kind(_ data: Data) -> String? {
            if data.starts(with: Array("%PDF".utf8)) { return "a PDF document" }
            if data.starts(with: Array("<".utf8)) || data.starts(with: Array("\u{FEFF}<".utf8)) { return "SVG" }
            return nil
        }
        let sides = [("actual", actual), ("reference", reference)]
        guard let (side, what) = sides.lazy.compactMap({ side, data in kind(data).map { (side, $0) } }).first else {
            return ""
        }
        return "; the \(side) snapshot is \(what), not PNG: the pixelmatch strategies compare PNG (draw the canvas "
            + "with format: .png)"
    }
}

/// Writes a failed comparison's images, since swift-snapshot-testing keeps no attachments on Linux.
package enum SnapshotArtifacts {
    /// How many comparisons each folder name has had in this process.
    private static let uses = Mutex<[String: Int]>([:])

    /// The folder of a comparison's images under `root` (default `$SNAPSHOT_ARTIFACTS`, else the temporary folder):
    /// `declutter-` + the test's `name` + eight digits of the reference's hash, so that the same snapshot failing again
    /// replaces its folder where a folder a failure would pile up. Each comparison asks once, and a name asked for
    /// again in this process (a test's second assertion of the same reference; under XCTest, whose tests are all
    /// `snapshot`, another test's) gets `-2`, `-3`, … in the order they run, so no report hides another.
    static func folder(name: String, reference: Data, root: URL?) -> URL {
        let root =
            root ?? ProcessInfo.processInfo.environment["SNAPSHOT_ARTIFACTS"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory
        let base = "declutter-\(name)-\(reference.fnv1aHex.prefix(8))"
        let use = uses.withLock { uses in
            let use = (uses[base] ?? 0) + 1
            uses[base] = use
            return use
        }
        return root.appendingPathComponent(use == 1 ? base : "\(base)-\(use)")
    }

    /// Forgets this process's comparisons of the test `name`, as if a new test run began: for tests of the folders'
    /// names.
    package static func forgetComparisons(of name: String) {
        uses.withLock { uses in uses = uses.filter { !$0.key.hasPrefix("declutter-\(name)-") } }
    }

    /// Removes a comparison's folder once it matches again, as ``GoldenFiles`` does, so that what is left is what
    /// still fails.
    static func remove(_ folder: URL) {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Writes the images and their report page (``DiffArtifacts``) into `folder` and lists them, one per line after
    /// a line break.
    static func write(_ difference: ImageDifference, name: String, reference: Data, actual: Data, into folder: URL)
        -> String
    {
        do {
            return "\n"
                + (try DiffArtifacts.write(
                    difference, expected: reference, actual: actual, into: folder,
                    title: "Snapshot comparison: \(name)")).message
        } catch {
            return "\n  (the images could not be written: \(error))"
        }
    }

    /// The running Swift Testing test as a file name, `SnapTests.clusterIcon` (its file, then its name without the
    /// parameter list); `snapshot` under XCTest, whose test is not known here.
    static func testName() -> String {
        #if canImport(Testing)
            if let test = Test.current {
                let file = test.sourceLocation.fileName.split(separator: ".").first.map(String.init) ?? ""
                let function = test.name.split(separator: "(").first.map(String.init) ?? test.name
                let name = (file.isEmpty ? "" : file + ".") + function
                let safe = name.unicodeScalars.map { scalar in
                    CharacterSet.alphanumerics.contains(scalar) && scalar.isASCII
                        || "._-".unicodeScalars.contains(scalar)
                        ? String(scalar) : "_"
                }
                return String(safe.joined().prefix(100))
            }
        #endif
        return "snapshot"
    }
}
