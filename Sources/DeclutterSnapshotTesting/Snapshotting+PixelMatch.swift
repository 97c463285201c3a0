import DeclutterRender
import DeclutterTesting
import Foundation
import SnapshotTesting

extension Snapshotting where Value == Data, Format == Data {
    /// PNG data compared as pixelmatch does, within the comparison's tolerances; works on Linux.
    ///
    /// ```swift
    /// assertSnapshot(of: pngData, as: .pixelmatchPNG())
    /// ```
    /// On a failure the reference, the actual image and pixelmatch's diff are written to `artifacts`
    /// (default `$SNAPSHOT_ARTIFACTS`, else the temporary folder) and their paths are in the failure message.
    public static func pixelmatchPNG(_ comparison: ImageComparison = ImageComparison(), artifacts: URL? = nil) -> Snapshotting {
        Snapshotting(pathExtension: "png", diffing: .pixelmatchPNG(comparison, artifacts: artifacts))
    }
}

extension Snapshotting where Value == RGBAImage, Format == Data {
    /// A decoded image, stored as PNG and compared as pixelmatch does.
    public static func pixelmatchImage(_ comparison: ImageComparison = ImageComparison(), artifacts: URL? = nil) -> Snapshotting {
        Snapshotting<Data, Data>.pixelmatchPNG(comparison, artifacts: artifacts).pullback { image in (try? image.pngData()) ?? Data() }
    }
}

extension Snapshotting where Value == Canvas, Format == Data {
    /// A rendered PNG canvas, stored as PNG and compared as pixelmatch does.
    public static func pixelmatchCanvas(_ comparison: ImageComparison = ImageComparison(), artifacts: URL? = nil) -> Snapshotting {
        Snapshotting<Data, Data>.pixelmatchPNG(comparison, artifacts: artifacts).pullback { canvas in (try? canvas.data()) ?? Data() }
    }
}

extension Diffing where Value == Data {
    /// Compares PNG data with ``ImageComparison`` and writes the failure's images where a person can open them.
    public static func pixelmatchPNG(_ comparison: ImageComparison, artifacts: URL? = nil) -> Diffing {
        .diff(toData: { $0 }, fromData: { $0 }) { reference, actual in
            guard reference != actual else { return nil }
            let message: String
            var diffPNG: Data?
            do {
                let expected = try RGBAImage(png: reference, name: "the reference")
                let image = try RGBAImage(png: actual, name: "the actual image")
                let result = try comparison.compare(expected, image)
                if result.passes { return nil }
                diffPNG = try result.diff.pngData()
                message = "\(result.differingPixels) pixels differ (\(String(format: "%.2f", result.ratio * 100)) %) "
                    + "at threshold \(comparison.pixelMatch.threshold)"
            } catch {
                message = "\(error)"
            }
            let paths = SnapshotArtifacts.write(reference: reference, actual: actual, diff: diffPNG, into: artifacts)
            var attachments: [DiffAttachment] = [.data(reference, name: "reference.png"), .data(actual, name: "actual.png")]
            if let diffPNG { attachments.append(.data(diffPNG, name: "difference.png")) }
            return (message + paths, attachments)
        }
    }
}

/// Writes a failed comparison's images, since swift-snapshot-testing keeps no attachments on Linux.
enum SnapshotArtifacts {
    /// Writes the images into a fresh folder under `root` (default `$SNAPSHOT_ARTIFACTS`, else the temporary folder)
    /// and lists them.
    static func write(reference: Data, actual: Data, diff: Data?, into root: URL?) -> String {
        let root = root ?? ProcessInfo.processInfo.environment["SNAPSHOT_ARTIFACTS"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory
        let folder = root.appendingPathComponent("declutter-\(UUID().uuidString.prefix(8))")
        guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil else { return "" }
        var lines: [String] = []
        for (name, data) in [("reference", reference), ("actual", actual), ("diff", diff)] {
            guard let data else { continue }
            let url = folder.appendingPathComponent("\(name).png")
            if (try? data.write(to: url)) != nil { lines.append("\n  \(name): \(url.path)") }
        }
        return lines.joined()
    }
}
