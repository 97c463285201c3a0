import DeclutterTesting
import Foundation
import Testing

/// pixelmatch 7.2's own fixtures (`Fixtures/pixelmatch`, ISC licence beside them): counts and diff images must be
/// equal, from both engines.
@Suite struct PixelMatchTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures/pixelmatch")

    static func image(_ name: String) throws -> RGBAImage {
        try RGBAImage(contentsOf: fixtures.appendingPathComponent("\(name).png"))
    }

    /// The fixture table of pixelmatch's test suite.
    static let cases: [(first: String, second: String, diff: String?, options: PixelMatch, mismatched: Int)] = [
        ("1a", "1b", "1diff", PixelMatch(threshold: 0.05), 143),
        ("1a", "1b", "1diffdefaultthreshold", PixelMatch(), 106),
        ("1a", "1b", "1diffmask", PixelMatch(threshold: 0.05, diffMask: true), 143),
        ("1a", "1a", "1emptydiffmask", PixelMatch(threshold: 0, diffMask: true), 0),
        (
            "2a", "2b", "2diff",
            PixelMatch(threshold: 0.05, alpha: 0.5, antialiasingColor: .init(0, 192, 0), diffColor: .init(255, 0, 255)),
            12437
        ),
        ("3a", "3b", "3diff", PixelMatch(threshold: 0.05), 212),
        ("4a", "4b", "4diff", PixelMatch(threshold: 0.05), 36049),
        ("5a", "5b", "5diff", PixelMatch(threshold: 0.05), 6),
        ("6a", "6b", "6diff", PixelMatch(threshold: 0.05), 51),
        ("6a", "6a", "6empty", PixelMatch(threshold: 0), 0),
        ("7a", "7b", "7diff", PixelMatch(alternateDiffColor: .init(0, 255, 0)), 2448),
        ("8a", "5b", "8diff", PixelMatch(threshold: 0.05), 32896),
    ]

    @Test(arguments: cases.indices, PixelMatch.Engine.allCases)
    func reproducesPixelmatchFixtures(index: Int, engine: PixelMatch.Engine) throws {
        var (first, second, diffName, options, expected) = Self.cases[index]
        options.engine = engine
        let (mismatched, diff) = options.compare(try Self.image(first), try Self.image(second))
        #expect(mismatched == expected, "\(first) vs \(second)")
        #expect(options.countMismatched(try Self.image(first), try Self.image(second)) == expected)
        if let diffName {
            let reference = try Self.image(diffName)
            let differing = zip(stride(from: 0, to: diff.pixels.count, by: 4), 0...).filter { offset, _ in
                diff.pixels[offset..<offset + 4] != reference.pixels[offset..<offset + 4]
            }.count
            #expect(differing == 0, "\(diffName): \(differing) pixels of the diff image differ")
        }
    }

    @Test func identicalImagesDrawTheFadedOriginal() throws {
        let image = try Self.image("1a")
        let (mismatched, diff) = PixelMatch().compare(image, image)
        #expect(mismatched == 0)
        // Opaque white stays white; any pixel becomes grey with full alpha.
        #expect(diff.pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 })
        let (_, mask) = PixelMatch(diffMask: true).compare(image, image)
        #expect(mask.pixels.allSatisfy { $0 == 0 })
    }

    @Test func alternateColourMarksPixelsThatGetDarker() {
        let white = RGBAImage(width: 2, height: 1, pixels: [255, 255, 255, 255, 0, 0, 0, 255])
        let swapped = RGBAImage(width: 2, height: 1, pixels: [0, 0, 0, 255, 255, 255, 255, 255])
        let options = PixelMatch(alternateDiffColor: .init(0, 0, 255))
        let (mismatched, diff) = options.compare(white, swapped)
        #expect(mismatched == 2)
        #expect(Array(diff.pixels[0..<4]) == [0, 0, 255, 255])  // white became black: darker
        #expect(Array(diff.pixels[4..<8]) == [255, 0, 0, 255])  // black became white
    }

    @Test func transparentPixelsBlendOverTheCheckerboardOrWhite() {
        // A half-transparent black pixel against opaque white: over white they differ, and so they do over the
        // checkerboard.
        let first = RGBAImage(width: 1, height: 1, pixels: [255, 255, 255, 0])
        let second = RGBAImage(width: 1, height: 1, pixels: [255, 255, 255, 255])
        #expect(PixelMatch(checkerboard: false).countMismatched(first, second) == 0)  // transparent over white is white
        #expect(PixelMatch(checkerboard: true).countMismatched(first, second) == 1)  // the checkerboard shows through
    }
}

@Suite struct ImageComparisonTests {
    @Test func tolerancesOnTop() throws {
        let first = try PixelMatchTests.image("1a"), second = try PixelMatchTests.image("1b")
        let strict = try ImageComparison(pixelMatch: PixelMatch(threshold: 0.05)).compare(first, second)
        #expect(strict.differingPixels == 143 && !strict.passes)
        #expect(abs(strict.ratio - 143.0 / (512 * 256)) < 1e-12)
        #expect(
            try ImageComparison(pixelMatch: PixelMatch(threshold: 0.05), maximumDifferingPixels: 143).compare(
                first, second
            ).passes)
        #expect(
            try !ImageComparison(pixelMatch: PixelMatch(threshold: 0.05), maximumDifferingPixels: 142).compare(
                first, second
            ).passes)
        #expect(
            try ImageComparison(pixelMatch: PixelMatch(threshold: 0.05), maximumDifferingRatio: 0.0011).compare(
                first, second
            ).passes)
    }

    @Test func sizesThatDifferAreNamed() throws {
        #expect(throws: ImageComparison.SizeMismatch(first: [512, 256], second: [256, 256])) {
            try ImageComparison().compare(try PixelMatchTests.image("1a"), try PixelMatchTests.image("2a"))
        }
        #expect(
            "\(ImageComparison.SizeMismatch(first: [512, 256], second: [256, 256]))"
                == "the images differ in size: 512×256 px and 256×256 px")
    }
}
