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
        let diff = try RGBAImage(contentsOf: URL(fileURLWithPath: String(diffPath)))
        #expect(diff.width == 64 && diff.height == 64)
        #expect(diff[32 + 26, 32] == [255, 0, 0, 255])  // the ring the larger disc added, in red
    }

    /// Each comparison of a run has its own folder, also a test's second assertion of the same reference; the next run
    /// replaces a comparison's folder, and removes it once the comparison matches again.
    @Test func eachComparisonKeepsItsOwnReport() throws {
        let artifacts = FileManager.default.temporaryDirectory.appendingPathComponent(
            "declutter-artifacts-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: artifacts) }
        let name = "SnapshottingTests.eachComparisonKeepsItsOwnReport"
        func compare(radius: Double) throws -> String? {
            let png = try canvas(radius: radius).data()
            return withSnapshotTesting(record: .never) {
                verifySnapshot(
                    of: png, as: .pixelmatchPNG(artifacts: artifacts), named: "disc",
                    snapshotDirectory: Self.snapshots, testName: "canvas")
            }
        }
        func folders() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: artifacts.path).sorted()
        }
        func actualPath(_ message: String?) -> String? {
            message?.split(separator: "\n").first { $0.contains("actual: ") }?.split(separator: " ").last.map(
                String.init)
        }
        SnapshotArtifacts.forgetComparisons(of: name)
        let first = try compare(radius: 14), second = try compare(radius: 10)
        let base = try #require(try folders().first)
        #expect(try folders() == [base, base + "-2"])
        #expect(actualPath(first) == "\(artifacts.path)/\(base)/actual/\(name).png")
        #expect(actualPath(second) == "\(artifacts.path)/\(base)-2/actual/\(name).png")
        #expect(
            try RGBAImage(contentsOf: URL(fileURLWithPath: "\(artifacts.path)/\(base)/actual/\(name).png"))
                == RGBAImage(encoded: try canvas(radius: 14).data()))
        // The next run: the first comparison fails again, into its own folder; then it matches and its folder goes.
        SnapshotArtifacts.forgetComparisons(of: name)
        #expect(actualPath(try compare(radius: 13)) == "\(artifacts.path)/\(base)/actual/\(name).png")
        #expect(try folders() == [base, base + "-2"])
        SnapshotArtifacts.forgetComparisons(of: name)
        #expect(try compare(radius: 12) == nil)
        #expect(try folders() == [base + "-2"])
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
