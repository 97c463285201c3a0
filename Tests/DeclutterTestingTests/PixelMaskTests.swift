import DeclutterTesting
import Testing

@Suite struct PixelMaskTests {
    @Test func rectanglesAreClippedAndMerged() {
        var mask = PixelMask(width: 10, height: 4)
        mask.ignore(x: -5, y: 1, width: 7, height: 1)  // columns 0–1 of row 1
        mask.ignore(x: 2, y: 1, width: 3, height: 1)  // touches it: one run 0..<5
        mask.ignore(x: 8, y: 1, width: 100, height: 100)  // clipped to the image: 8..<10 on rows 1–3
        mask.ignore(x: 3, y: 0, width: 0, height: 4)  // empty
        #expect(mask.runs(row: 0) == [])
        #expect(mask.runs(row: 1) == [0..<5, 8..<10])
        #expect(mask.runs(row: 3) == [8..<10])
        #expect(mask.ignoredPixelCount == 5 + 2 * 3)
        #expect(mask.ignores(x: 4, y: 1) && !mask.ignores(x: 5, y: 1) && !mask.ignores(x: 9, y: 7))
    }

    @Test func alphaAboveZeroIsIgnored() throws {
        // Row 0: alpha 0, 1, 255, 0; row 1: 0, 0, 0, 128.
        let alphas: [UInt8] = [0, 1, 255, 0, 0, 0, 0, 128]
        let image = RGBAImage(width: 4, height: 2, pixels: alphas.flatMap { [9, 9, 9, $0] })
        var mask = PixelMask(width: 4, height: 2)
        try mask.ignore(alphaOf: image, name: "a.mask.png")
        #expect(mask.runs(row: 0) == [1..<3])
        #expect(mask.runs(row: 1) == [3..<4])
        var other = PixelMask(width: 4, height: 2)
        other.ignore(x: 0, y: 0, width: 1, height: 1)
        other.formUnion(mask)
        #expect(other.runs(row: 0) == [0..<3])
    }

    @Test func aDitheredMaskKeepsEveryRun() throws {
        // Every other pixel opaque, shifted by one on odd rows: 500 runs of one pixel a row.
        let pixels = (0..<50).flatMap { y in
            (0..<1000).flatMap { x in [0, 0, 0, (x + y) % 2 == 0 ? 255 : 0] as [UInt8] }
        }
        var mask = PixelMask(width: 1000, height: 50)
        mask.ignore(x: 990, y: 0, width: 10, height: 1)
        try mask.ignore(alphaOf: RGBAImage(width: 1000, height: 50, pixels: pixels))
        #expect(mask.runs(row: 1).count == 500 && mask.runs(row: 1).first == 1..<2)
        #expect(mask.runs(row: 0).count == 496 && mask.runs(row: 0).last == 990..<1000)
        #expect(mask.ignoredPixelCount == 25_000 + 5)
        mask.ignore(x: 3, y: 1, width: 4, height: 1)  // joins the runs at 3, 5 and 7 with the pixels between
        #expect(Array(mask.runs(row: 1).prefix(3)) == [1..<2, 3..<8, 9..<10])
    }

    @Test func aMaskOfAnotherSizeIsNamed() {
        var mask = PixelMask(width: 4, height: 2)
        let error = PixelMask.SizeMismatch(mask: "b.mask.png", maskSize: [3, 2], imageSize: [4, 2])
        #expect(throws: error) {
            try mask.ignore(
                alphaOf: RGBAImage(width: 3, height: 2, pixels: .init(repeating: 0, count: 24)), name: "b.mask.png")
        }
        #expect("\(error)" == "the mask b.mask.png is 3×2 px but the image is 4×2 px; a mask has its image's size")
    }

    @Test func ignoredPixelsAreNotCounted() throws {
        let white = RGBAImage(width: 4, height: 1, pixels: .init(repeating: 255, count: 16))
        let black = RGBAImage(width: 4, height: 1, pixels: [0, 0, 0, 255] + .init(repeating: 255, count: 12))
        var mask = PixelMask(width: 4, height: 1)
        #expect(try ImageComparison().compare(white, black, mask: mask).differingPixels == 1)
        mask.ignore(x: 0, y: 0, width: 1, height: 1)
        let result = try ImageComparison().compare(white, black, mask: mask)
        #expect(result.differingPixels == 0 && result.passes)
        #expect(result.diff[0, 0] == [0, 128, 255, 255])  // (0 + 0) & 7 < 3: a stripe
    }
}
