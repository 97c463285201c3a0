import DeclutterGeometry
import DeclutterPlacement
import DeclutterStyle
import DeclutterTesting
import Foundation
import Testing

@testable import DeclutterRender

/// The cluster icon's geometry and colours, pixel by pixel, in the TANDm style.
@Suite struct ClusterIconTests {
    let renderer: MarkerRenderer
    init() throws { renderer = try MarkerRenderer(style: bundledStyle("tandm")) }

    // cairo stores colours as 16-bit values and keeps their high byte: 0.4736868 → 121, 0.5965670 → 152, 0.7060598 →
    // 180, 0.668 → 171.
    let bicycle: [UInt8] = [255, 121, 0, 255]
    let tricycle: [UInt8] = [152, 180, 0, 255]
    let unicycle: [UInt8] = [171, 121, 66, 255]
    let white: [UInt8] = [255, 255, 255, 255]

    @Test(arguments: [1, 2, 3])
    func tricycleShareIsASliceClockwiseFromThreeOClock(scale: Int) throws {
        // 2 of 5 are tricycles: the slice runs from 0° to 144°, clockwise on screen (downward from 3 o'clock).
        let canvas = try renderer.canvas(counts(["tricycle": 2, "bicycle": 3]), scale: Double(scale))
        func ring(_ degrees: Double) -> [UInt8] {
            let angle = degrees * Double.pi / 180, radius = 16.0 * Double(scale), centre = 20.0 * Double(scale)
            return pixel(canvas, Int(centre + radius * cos(angle)), Int(centre + radius * sin(angle)))
        }
        #expect(ring(10) == tricycle)
        #expect(ring(90) == tricycle)  // 6 o'clock
        #expect(ring(135) == tricycle)
        #expect(ring(155) == bicycle)
        #expect(ring(270) == bicycle)  // 12 o'clock
        #expect(ring(350) == bicycle)
        #expect(pixel(canvas, 10 * scale, 20 * scale) == white)  // inner disc, left of the text
        #expect(pixel(canvas, 0, 0) == [0, 0, 0, 0])  // outside the circle
        #expect(pixel(canvas, 40 * scale - 1, 40 * scale - 1) == [0, 0, 0, 0])
    }

    @Test func unicyclesMakeTheIconSolid() throws {
        let canvas = try renderer.canvas(counts(["unicycle": 3, "bicycle": 2]))
        for degrees in stride(from: 0.0, to: 360, by: 30) {
            let angle = degrees * Double.pi / 180
            #expect(pixel(canvas, Int(20 + 16 * cos(angle)), Int(20 + 16 * sin(angle))) == unicycle)
        }
    }

    @Test func countIsCentredByItsInk() throws {
        for total in [2, 7, 42, 999, 12_345] {
            let canvas = try renderer.canvas(counts(["bicycle": total]), scale: 3)
            // The bounding box of the dark text pixels.
            var minX = Int.max, maxX = Int.min, minY = Int.max, maxY = Int.min
            for y in 0..<120 {
                for x in 0..<120 {
                    let rgba = pixel(canvas, x, y)
                    if rgba[3] == 255 && rgba[0] < 128 && rgba[1] < 128 && rgba[2] < 128 {
                        minX = min(minX, x)
                        maxX = max(maxX, x)
                        minY = min(minY, y)
                        maxY = max(maxY, y)
                    }
                }
            }
            #expect(abs(Double(minX + maxX + 1) / 2 - 60) <= 1.5, "horizontal centre for \(total)")
            #expect(abs(Double(minY + maxY + 1) / 2 - 60) <= 1.5, "vertical centre for \(total)")
        }
    }

    @Test func longCountsShrinkToTheTextWidth() throws {
        // The sample's 20 pt font fits one and two digits; three digits (about 41 pt of ink) must shrink to 32 pt.
        let two = try renderer.fittedLayout("42", size: 20, maxWidth: 32)
        #expect(two.inkExtents.width < 32)
        let raw = try renderer.text.layout("999", family: "DejaVu Sans Bold", size: 20)
        #expect(raw.inkExtents.width > 38)
        let three = try renderer.fittedLayout("999", size: 20, maxWidth: 32)
        #expect(abs(three.inkExtents.width - 32) < 0.5)
        #expect(renderer.style.cluster.label(for: 12_345) == "12k")
    }

    @Test func pixelCacheMatchesPathDrawing() throws {
        // The raster fast path (pre-rendered discs) must look like drawing the paths directly.
        let counts = counts(["tricycle": 7, "bicycle": 11])
        let fast = try renderer.canvas(counts, scale: 2)
        let paths = try Canvas(width: 40, height: 40, scale: 2, format: .png)
        paths.context.translate(x: 1e-7, y: 0)  // no longer pixel-aligned: the path drawing is used
        try renderer.draw(counts, in: paths.context)
        // Over white, as a person sees it: only edge pixels differ, and by little (the round edge's coverage
        // comes from the pre-rendered disc instead of the slice's own path).
        let fastPixels = RGBAImage(surface: fast.surface), pathPixels = RGBAImage(surface: paths.surface)
        var largest = 0, differing = 0
        for offset in stride(from: 0, to: fastPixels.pixels.count, by: 4) {
            func overWhite(_ image: RGBAImage, _ channel: Int) -> Int {
                let alpha = Int(image.pixels[offset + 3])
                return (Int(image.pixels[offset + channel]) * alpha + 255 * (255 - alpha)) / 255
            }
            let difference = (0..<3).map { abs(overWhite(fastPixels, $0) - overWhite(pathPixels, $0)) }.max() ?? 0
            largest = max(largest, difference)
            if difference > 2 { differing += 1 }
        }
        #expect(largest <= 16)
        #expect(differing <= 40)
    }

    @Test func geometryOfClustersAndBalloons() {
        // TANDm's cluster view sits 10 points above its point, so the point is 10 below the icon's centre.
        #expect(
            renderer.geometry(for: counts(["bicycle": 5]))
                == MarkerGeometry(
                    kind: .cluster, width: 40, height: 40, anchorX: 20, anchorY: 30, collisionMode: .circle))
        #expect(renderer.geometry(for: counts(["bicycle": 5])).centerOffset == (0, -10))
        #expect(
            renderer.geometry(for: counts(["bicycle": 1]))
                == MarkerGeometry(kind: .balloon, width: 30, height: 40, anchorX: 15, anchorY: 40))
        // The renderer's geometry is the style's, which placement uses too.
        #expect(
            renderer.geometry(for: counts(["bicycle": 3, "tricycle": 4])) == renderer.style.markerGeometry(count: 7))
    }

    @Test func balloonIsTintedWithItsTipAtTheBottomCentre() throws {
        let canvas = try renderer.canvas(counts(["bicycle": 1]), scale: 2)
        #expect(canvas.surface.pixelWidth == 60 && canvas.surface.pixelHeight == 80)
        #expect(pixel(canvas, 30, 77)[3] > 0)  // the tip
        #expect(pixel(canvas, 20, 77) == [0, 0, 0, 0])  // beside the tip
        #expect(pixel(canvas, 6, 30) == bicycle)  // the head, left of the glyph
        // The glyph is painted white inside the head.
        let whites = (10..<50).flatMap { y in (10..<50).map { x in pixel(canvas, x, y) } }.filter { $0 == white }.count
        #expect(whites > 100)
    }

    @Test func unknownCategoryAndEmptyCountsAreErrors() throws {
        let canvas = try Canvas(width: 40, height: 40, format: .png)
        #expect(throws: CountsError("unknown category \"car\"; the style has: tricycle, bicycle, unicycle")) {
            try renderer.draw(counts(["car": 2]), in: canvas.context)
        }
        #expect(throws: CountsError("the counts must add up to at least 1")) {
            try renderer.draw(CategoryCounts(), in: canvas.context)
        }
    }
}
