import DeclutterCommandLine
import DeclutterMap
import DeclutterMapContent
import DeclutterPNG
import DeclutterRender
import DeclutterStyle
import DeclutterSupport
import DeclutterTesting
import Foundation

/// Times pixelmatch-style comparison of two decoded images: the fast engine with its diff image, the same counting
/// only, and the reference engine with its diff image, alternating within each run; the diff is drawn into one
/// buffer allocated beforehand, as pixelmatch-js's benchmark does. The images are two 1024×1024
/// map-like pictures that differ in a small region, or a given pair of PNGs (`--pair A.png B.png`), decoded once
/// (that decoding, both images at once on two cores, is timed apart).
struct DiffBenchmark {
    /// Comparisons timed per arm; the median is reported.
    var runs: Int
    /// The two PNG files to compare, or nil for the built-in map-like pair.
    var pair: (String, String)?

    struct Result {
        var pair: (String, String)?
        var width: Int
        var height: Int
        var mismatched: Int
        /// Decoding both PNGs (nil for the built-in pair, which is drawn).
        var decodeMilliseconds: Double?
        /// Median milliseconds per comparison: fast with diff, fast counting only, reference with diff.
        var diffMilliseconds: Double
        var countMilliseconds: Double
        var referenceMilliseconds: Double

        var megapixels: Double { Double(width * height) / 1e6 }
        func rate(_ milliseconds: Double) -> Double { megapixels / (milliseconds / 1000) }

        var json: String {
            let files =
                pair.map { "\"pair\":[\(JSONValue.string($0.0).jsonText),\(JSONValue.string($0.1).jsonText)]," } ?? ""
            let decode = decodeMilliseconds.map { String(format: "\"decode_ms\":%.2f,", $0) } ?? ""
            return
                "{\"area\":\"diff\",\(files)\"width\":\(width),\"height\":\(height),\"mismatched\":\(mismatched),\(decode)"
                + String(
                    format: "\"megapixels_per_s\":%.1f,\"ms\":%.3f,\"count_megapixels_per_s\":%.1f,\"count_ms\":%.3f,"
                        + "\"reference_megapixels_per_s\":%.1f,\"reference_ms\":%.3f,\"cores\":%d}",
                    rate(diffMilliseconds), diffMilliseconds, rate(countMilliseconds), countMilliseconds,
                    rate(referenceMilliseconds), referenceMilliseconds, Cores.available)
        }

        var text: String {
            let decode = decodeMilliseconds.map { String(format: ", both decoded in %.1f ms", $0) } ?? ""
            return String(
                format: "diff: %.1f megapixels/s (%.2f ms per %d×%d pair with diff image, %d differing pixels%@); "
                    + "counting only %.1f megapixels/s (%.2f ms); reference engine %.1f megapixels/s (%.2f ms)",
                rate(diffMilliseconds), diffMilliseconds, width, height, mismatched, decode,
                rate(countMilliseconds), countMilliseconds, rate(referenceMilliseconds), referenceMilliseconds)
        }
    }

    func run() throws -> Result {
        let first: RGBAImage, second: RGBAImage
        var decodeMilliseconds: Double?
        if let pair {
            let start = DispatchTime.now().uptimeNanoseconds
            (first, second) = try FolderComparison(pixelLimit: PNGDecoder.maximumPixels)
                .images(expected: URL(fileURLWithPath: pair.0), actual: URL(fileURLWithPath: pair.1))
            decodeMilliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            guard first.width == second.width, first.height == second.height else {
                throw CommandError(
                    "--pair: \(pair.0) is \(first.width)×\(first.height) px and \(pair.1) is \(second.width)×\(second.height) px; "
                        + "the comparison needs one size")
            }
        } else {
            first = try Self.mapLikeImage(changed: false)
            second = try Self.mapLikeImage(changed: true)
        }
        let fast = PixelMatch(), reference = PixelMatch(engine: .reference)
        var diff: [Double] = [], count: [Double] = [], slow: [Double] = []
        var mismatched = 0
        func time(_ body: () -> Void) -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        }
        // The diff is drawn into one image allocated beforehand, as pixelmatch-js draws into the caller's buffer:
        // what is timed is the comparison, not the allocator's first touch of 4 bytes a pixel.
        var output = RGBAImage(
            width: first.width, height: first.height,
            pixels: [UInt8](repeating: 0, count: first.width * first.height * 4))
        for _ in 0..<runs {
            diff.append(time { mismatched = fast.compare(first, second, into: &output) })
            count.append(time { mismatched = fast.countMismatched(first, second) })
            slow.append(time { mismatched = reference.compare(first, second, into: &output) })
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        return Result(
            pair: pair, width: first.width, height: first.height, mismatched: mismatched,
            decodeMilliseconds: decodeMilliseconds,
            diffMilliseconds: median(diff), countMilliseconds: median(count), referenceMilliseconds: median(slow))
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
            if changed && x < 128 && y < 128 {
                x += 6
                y += 4
            }
            context.circle(centerX: x, centerY: y, radius: 6)
            context.fill(RGBAColor(red: index % 2 == 0 ? 0.85 : 0.1, green: 0.3, blue: 0.5))
        }
        return RGBAImage(
            width: canvas.surface.pixelWidth, height: canvas.surface.pixelHeight, pixels: canvas.surface.straightRGBA())
    }
}
