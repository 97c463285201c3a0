import Foundation
import Testing

@testable import DeclutterTesting

/// Where the counted pixels lie, and the report's enlargement of a small changed area.
@Suite struct ComparisonReportZoomTests {
    /// A 100×80 grey image with the pixels `painted` red in the second copy.
    static func pair(painted: [(Int, Int)]) -> (RGBAImage, RGBAImage) {
        let grey = [UInt8](repeating: 128, count: 100 * 80 * 4)
        var first = RGBAImage(width: 100, height: 80, pixels: grey), second = first
        for index in 0..<100 * 80 { first.pixels[index * 4 + 3] = 255 }
        second = first
        for (x, y) in painted {
            second.pixels.replaceSubrange((y * 100 + x) * 4..<(y * 100 + x) * 4 + 4, with: [255, 0, 0, 255])
        }
        return (first, second)
    }

    @Test func theChangedAreaHoldsTheCountedPixelsOnly() throws {
        let (first, second) = Self.pair(painted: [(40, 30), (43, 31), (41, 33)])
        let result = try ImageComparison().compare(first, second)
        #expect(result.differingPixels == 3)
        #expect(PixelMatch().changedArea(in: result.diff) == [40, 30, 4, 4])
        #expect(PixelMatch().changedArea(in: try ImageComparison().compare(first, first).diff) == nil)
        // A grey diff colour could be the faded background: no area is claimed.
        let grey = PixelMatch(diffColor: PixelMatch.RGB(90, 90, 90))
        #expect(grey.changedArea(in: try ImageComparison(pixelMatch: grey).compare(first, second).diff) == nil)
    }

    @Test func aSmallChangedAreaIsShownEnlargedAndALargeOneIsNot() throws {
        let item = ImageDifference(
            path: "maps/a (1).png", status: .changed, expectedSize: [100, 80], actualSize: [100, 80],
            differingPixels: 3, diffPNG: Data([1]), changedArea: [40, 30, 4, 4])
        let zoom = ComparisonReport(title: "t").zoom(item)
        // 32 px around the area, at ×7 (the most that keeps 32 px within 240), from the actual image's own file.
        #expect(zoom.contains("The changed pixels lie at x 40–43, y 30–33, enlarged:"), "\(zoom)")
        #expect(
            zoom.contains(
                "<div class=\"zoom actual\" style=\"width:224px;height:224px;background-image:url(actual/maps/a%20%281%29.png);"
                    + "background-position:-182px -112px;background-size:700px 560px\"></div>"), "\(zoom)")
        var large = item
        large.changedArea = [10, 10, 40, 20]
        #expect(ComparisonReport(title: "t").zoom(large) == "")
    }
}
