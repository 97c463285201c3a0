import DeclutterRender
import DeclutterSnapshotTesting
import DeclutterStyle
import DeclutterTesting
import Foundation
import SnapshotTesting
import Testing

/// `assertSnapshot(of:as:)` with the pixelmatch strategies, the way a user writes it, on Linux.
@Suite struct SnapshottingTests {
    static let snapshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Snapshots/SnapshottingTests")
        .path

    func canvas(radius: Double) throws -> Canvas {
        let canvas = try Canvas(width: 32, height: 32, scale: 2, format: .png)
        canvas.context.circle(centerX: 16, centerY: 16, radius: radius)
        canvas.context.fill(RGBAColor(red: 0, green: 0.45, blue: 0.7))
        return canvas
    }

    @Test func canvasMatchesItsReference() throws {
        let failure = verifySnapshot(
            of: try canvas(radius: 12), as: .pixelmatchCanvas(), named: "disc",
            snapshotDirectory: Self.snapshots, testName: "canvas")
        #expect(failure == nil, "\(failure ?? "")")
    }

    @Test func aChangedImageFailsWithItsArtifacts() throws {
        let artifacts = FileManager.default.temporaryDirectory.appendingPathComponent(
            "declutter-artifacts-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: artifacts) }
        let larger = try canvas(radius: 14).data()
        let failure = withSnapshotTesting(record: .never) {
            verifySnapshot(
                of: larger, as: .pixelmatchPNG(artifacts: artifacts), named: "disc", snapshotDirectory: Self.snapshots,
                testName: "canvas")
        }
        let message = try #require(failure)
        #expect(message.contains("pixels differ"))
        let diffPath = try #require(
            message.split(separator: "\n").first { $0.contains("diff: ") }?.split(separator: " ").last)
        // Named for the test, and for the reference, so that a second failure replaces the first's folder.
        let folder = try #require(try FileManager.default.contentsOfDirectory(atPath: artifacts.path).first)
        #expect(folder.hasPrefix("declutter-SnapshottingTests.aChangedImageFailsWithItsArtifacts-"), "\(folder)")
        #expect(
            diffPath
                == "\(artifacts.path)/\(folder)/diff/SnapshottingTests.aChangedImageFailsWithItsArtifacts.png")
        let page = try String(contentsOfFile: "\(artifacts.path)/\(folder)/index.html", encoding: .utf8)
        #expect(page.contains("Snapshot comparison: SnapshottingTests.aChangedImageFailsWithItsArtifacts"))
        _ = withSnapshotTesting(record: .never) {
            verifySnapshot(
                of: larger, as: .pixelmatchPNG(artifacts: artifacts), named: "disc", snapshotDirectory: Self.snapshots,
                testName: "canvas")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: artifacts.path) == [folder])
        let diff = try RGBAImage(contentsOf: URL(fileURLWithPath: String(diffPath)))
        #expect(diff.width == 64 && diff.height == 64)
        #expect(diff[32 + 26, 32] == [255, 0, 0, 255])  // the ring the larger disc added, in red
    }

    /// A canvas drawn as SVG is stored as its document by a strategy (which cannot refuse a value); compared with a
    /// PNG reference, the failure says what it is rather than "cannot read image the actual image".
    @Test func anSVGCanvasSaysItIsNoPNG() throws {
        let svg = try Canvas(width: 32, height: 32, format: .svg)
        svg.context.circle(centerX: 16, centerY: 16, radius: 12)
        svg.context.fill(RGBAColor(red: 0, green: 0.45, blue: 0.7))
        let failure = withSnapshotTesting(record: .never) {
            verifySnapshot(
                of: svg, as: .pixelmatchCanvas(artifacts: FileManager.default.temporaryDirectory), named: "disc",
                snapshotDirectory: Self.snapshots, testName: "canvas")
        }
        let message = try #require(failure)
        #expect(
            message.contains(
                "cannot read the actual image: not a PNG file (the signature is missing); the actual snapshot is SVG, "
                    + "not PNG: the pixelmatch strategies compare PNG (draw the canvas with format: .png)"),
            "\(message)")
    }

    @Test func withinTolerancesPasses() throws {
        let larger = try canvas(radius: 14)
        let failure = withSnapshotTesting(record: .never) {
            verifySnapshot(
                of: larger, as: .pixelmatchCanvas(ImageComparison(maximumDifferingRatio: 0.5)),
                named: "disc", snapshotDirectory: Self.snapshots, testName: "canvas")
        }
        #expect(failure == nil)
    }
}
