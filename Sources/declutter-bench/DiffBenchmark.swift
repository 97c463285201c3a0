import DeclutterMap
import DeclutterMapContent
import DeclutterPNG
import DeclutterRender
import DeclutterStyle
import DeclutterTesting
import Foundation

/// Times pixelmatch-style comparison of two 1024×1024 map-like images that differ in a small region, diff drawn.
struct DiffBenchmark {
    /// Comparisons timed.
    var runs: Int

    struct Result {
        var megapixelsPerSecond: Double
        var milliseconds: Double
        var mismatched: Int

        var json: String {
            String(format: "{\"area\":\"diff\",\"megapixels_per_s\":%.1f,\"ms\":%.3f,\"width\":1024,\"height\":1024,\"mismatched\":%d}",
                   megapixelsPerSecond, milliseconds, mismatched)
        }

        var text: String {
            String(format: "diff: %.1f megapixels/s (%.2f ms per 1024×1024 pair with diff image, %d differing pixels)",
                   megapixelsPerSecond, milliseconds, mismatched)
        }
    }

    func run() throws -> Result {
        let first = try Self.mapLikeImage(changed: false), second = try Self.mapLikeImage(changed: true)
        let pixelMatch = PixelMatch()
        var mismatched = 0
        var times: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            let result = pixelMatch.compare(first, second)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            mismatched = result.mismatched
        }
        times.sort()
        let median = times[times.count / 2]
        return Result(megapixelsPerSecond: 1024 * 1024 / 1e6 / (median / 1000), milliseconds: median, mismatched: mismatched)
    }

    /// A seeded map-like picture: water, land polygons, roads, markers; `changed` moves a few markers in one corner.
    static func mapLikeImage(changed: Bool) throws -> RGBAImage {
        let canvas = try Canvas(width: 1024, height: 1024, format: .png)
        let context = canvas.context
        var generator = SeededRandom(seed: 2024)
        func random() -> Double { generator.next() }
        context.rectangle(x: 0, y: 0, width: 1024, height: 1024)
        context.fill(RGBAColor(red: 0.67, green: 0.82, blue: 0.93))
        for _ in 0..<40 {
            let centerX = random() * 1024, centerY = random() * 1024, radius = 40 + random() * 160
            context.newPath()
            for step in 0..<12 {
                let angle = Double(step) / 12 * 2 * Double.pi, reach = radius * (0.6 + random() * 0.4)
                let x = centerX + reach * cos(angle), y = centerY + reach * sin(angle)
                if step == 0 { context.move(toX: x, y: y) } else { context.line(toX: x, y: y) }
            }
            context.closePath()
            context.fill(RGBAColor(red: 0.93, green: 0.91, blue: 0.85))
        }
        for _ in 0..<120 {
            context.newPath()
            context.move(toX: random() * 1024, y: random() * 1024)
            context.line(toX: random() * 1024, y: random() * 1024)
            context.stroke(RGBAColor(red: 1, green: 0.85, blue: 0.55), width: 1 + random() * 3)
        }
        for index in 0..<200 {
            var x = random() * 1024, y = random() * 1024
            if changed && x < 128 && y < 128 { x += 6; y += 4 }
            context.circle(centerX: x, centerY: y, radius: 6)
            context.fill(RGBAColor(red: index % 2 == 0 ? 0.85 : 0.1, green: 0.3, blue: 0.5))
        }
        return RGBAImage(width: canvas.surface.pixelWidth, height: canvas.surface.pixelHeight, pixels: canvas.surface.straightRGBA())
    }
}
