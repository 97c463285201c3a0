import DeclutterTesting
import Foundation
import Testing

/// The golden-file workflow itself: record modes, failure artifacts, messages.
@Suite struct GoldenFilesTests {
    /// A throwaway package folder with a `Package.swift`, so `GoldenFiles` finds its root there.
    final class Sandbox {
        let root: URL
        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent(
                "declutter-golden-\(UUID().uuidString)")
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent("Tests"), withIntermediateDirectories: true)
            try Data().write(to: root.appendingPathComponent("Package.swift"))
        }
        deinit { try? FileManager.default.removeItem(at: root) }

        func goldens(_ mode: RecordMode, tolerance: ImageComparison = ImageComparison()) throws -> GoldenFiles {
            var goldens = try GoldenFiles(
                suite: "Suite", filePath: root.appendingPathComponent("Tests/File.swift").path,
                recordMode: mode, comparison: tolerance)
            goldens.artifacts = root.appendingPathComponent("artifacts")
            return goldens
        }
    }

    /// A PNG of a square with one coloured pixel.
    func png(width: Int = 4, height: Int = 4, marked: [UInt8] = [255, 0, 0, 255]) throws -> Data {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        pixels.replaceSubrange(0..<4, with: marked)
        return try RGBAImage(width: width, height: height, pixels: pixels).pngData()
    }

    func message(_ body: () throws -> Void) -> String {
        do {
            try body()
            return ""
        } catch { return "\(error)" }
    }

    @Test func missingReferenceIsRecordedAndFails() throws {
        let sandbox = try Sandbox()
        let goldens = try sandbox.goldens(.missing)
        let reference = sandbox.root.appendingPathComponent("Snapshots/Suite/test.one.png")
        #expect(
            message { try goldens.verifyPNG(try png(), test: "test", name: "one") }
                == "recorded \(reference.path) (no reference existed); check it and run again")
        #expect(try Data(contentsOf: reference) == png())
        try goldens.verifyPNG(png(), test: "test", name: "one")  // now it matches
    }

    /// Mode all rewrites a golden that differs and stops the test there, as the other modes do; one already the same
    /// byte for byte passes, so that the next run reaches the test's next golden (each run rewrote the first before).
    @Test func allModeReachesEveryGoldenOfATest() throws {
        let sandbox = try Sandbox()
        try sandbox.goldens(.all).record(png(), test: "test", name: "one")
        try sandbox.goldens(.all).record(png(), test: "test", name: "two")
        let goldens = try sandbox.goldens(.all)
        let changed = try png(marked: [0, 0, 255, 255])
        func run() -> String {
            message {
                try goldens.verifyPNG(changed, test: "test", name: "one")
                try goldens.verifyPNG(changed, test: "test", name: "two")
            }
        }
        let folder = sandbox.root.appendingPathComponent("Snapshots/Suite")
        #expect(run() == "recorded \(folder.path)/test.one.png (record mode all); check it and run again")
        #expect(run() == "recorded \(folder.path)/test.two.png (record mode all); check it and run again")
        #expect(run() == "")
        #expect(try Data(contentsOf: folder.appendingPathComponent("test.two.png")) == changed)
    }

    @Test func neverModeDoesNotRecord() throws {
        let sandbox = try Sandbox()
        let goldens = try sandbox.goldens(.never)
        let reference = sandbox.root.appendingPathComponent("Snapshots/Suite/test.one.png")
        #expect(
            message { try goldens.verifyPNG(try png(), test: "test", name: "one") }
                == "no reference at \(reference.path) and SNAPSHOT_TESTING_RECORD=never")
        #expect(!FileManager.default.fileExists(atPath: reference.path))
    }

    @Test func mismatchWritesActualExpectedAndDiff() throws {
        let sandbox = try Sandbox()
        try sandbox.goldens(.all).record(png(), test: "test", name: "one")
        let goldens = try sandbox.goldens(.missing)
        let text = message { try goldens.verifyPNG(try png(marked: [0, 0, 255, 255]), test: "test", name: "one") }
        let folder = sandbox.root.appendingPathComponent("artifacts/Suite/test.one")
        #expect(
            text == """
                \(sandbox.root.path)/Snapshots/Suite/test.one.png: 1 pixel differs (6.25 %) at threshold 0.1
                  expected: \(folder.path)/expected/test.one.png
                  actual: \(folder.path)/actual/test.one.png
                  diff: \(folder.path)/diff/test.one.png
                  report: file://\(folder.path)/index.html#image-test.one.png
                """)
        let diff = try RGBAImage(contentsOf: folder.appendingPathComponent("diff/test.one.png"))
        #expect(diff[0, 0] == [255, 0, 0, 255])  // the differing pixel in red
        #expect(diff[1, 1] == [255, 255, 255, 255])  // white, faded to near-white grey
        #expect(
            try RGBAImage(contentsOf: folder.appendingPathComponent("actual/test.one.png"))[0, 0] == [0, 0, 255, 255])
        let page = try String(contentsOf: folder.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(
            page.contains(
                #"<article class="image" id="image-test.one.png" data-path="test.one.png" data-status="changed" data-mismatched="1">"#
            ))
        #expect(page.contains(#"<img class="diff" src="diff/test.one.png" alt="diff">"#))
        #expect(page.contains(#"<p class="figures">1 pixel differs (6.2500 %) · 4×4 px</p>"#))
        // Once it matches again, the failure's report goes: it would be taken for a current one.
        try goldens.verifyPNG(try png(), test: "test", name: "one")
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test func tolerancesAcceptSmallDifferences() throws {
        let sandbox = try Sandbox()
        try sandbox.goldens(.all).record(png(), test: "test", name: "one")
        // Below the YIQ threshold.
        try sandbox.goldens(.never).verifyPNG(png(marked: [250, 6, 4, 255]), test: "test", name: "one")
        try sandbox.goldens(.never, tolerance: ImageComparison(maximumDifferingPixels: 1))
            .verifyPNG(png(marked: [0, 0, 255, 255]), test: "test", name: "one")
    }

    @Test func failedModeOverwritesAndFails() throws {
        let sandbox = try Sandbox()
        try sandbox.goldens(.all).record(png(), test: "test", name: "one")
        let goldens = try sandbox.goldens(.failed)
        #expect(
            message { try goldens.verifyPNG(try png(marked: [0, 0, 255, 255]), test: "test", name: "one") }
                .contains("re-recorded it (record mode failed)"))
        try goldens.verifyPNG(png(marked: [0, 0, 255, 255]), test: "test", name: "one")
    }

    @Test func sizesThatDifferSaySo() throws {
        let sandbox = try Sandbox()
        try sandbox.goldens(.all).record(png(), test: "test", name: "one")
        #expect(
            message { try sandbox.goldens(.never).verifyPNG(try png(width: 5), test: "test", name: "one") }
                .contains("test.one.png: the images differ in size: expected 4×4 px, got 5×4 px"))
    }

    @Test func textReferencesNameTheFirstDifferentLine() throws {
        let sandbox = try Sandbox()
        try sandbox.goldens(.all).recordText("a\nb\nc\n", test: "doc", name: "one")
        try sandbox.goldens(.never).verifyText("a\r\nb  \nc", test: "doc", name: "one")
        #expect(
            message { try sandbox.goldens(.never).verifyText("a\nB\nc\n", test: "doc", name: "one") }
                .hasSuffix(
                    "doc.one.svg: the text differs from line 2 on (4 lines, reference 4)\n  actual: \(sandbox.root.path)/artifacts/Suite/doc.one.actual.svg\n  expected: \(sandbox.root.path)/artifacts/Suite/doc.one.expected.svg"
                ))
        try sandbox.goldens(.never).verifyText("a\nb\nc\n", test: "doc", name: "one")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(sandbox.root.path)/artifacts/Suite") == [])
    }

    @Test func recordModeFromTheEnvironment() throws {
        #expect(try RecordMode.fromEnvironment([:]) == .missing)
        #expect(try RecordMode.fromEnvironment(["SNAPSHOT_TESTING_RECORD": "failed"]) == .failed)
        #expect(
            throws: GoldenError(
                "SNAPSHOT_TESTING_RECORD=FAILED names no record mode; expected one of: never, missing, failed, all, in "
                    + "lower case as swift-snapshot-testing reads them (it ignores any other value)")
        ) {
            try RecordMode.fromEnvironment(["SNAPSHOT_TESTING_RECORD": "FAILED"])
        }
    }
}

extension GoldenFiles {
    /// Writes a reference through record mode `all`, which always records and reports it.
    func record(_ png: Data, test: String, name: String) throws {
        #expect(throws: GoldenError.self) { try self.verifyPNG(png, test: test, name: name) }
    }

    /// Writes a text reference through record mode `all`.
    func recordText(_ text: String, test: String, name: String) throws {
        #expect(throws: GoldenError.self) { try self.verifyText(text, test: test, name: name) }
    }
}
