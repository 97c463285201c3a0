import DeclutterCore
import DeclutterRender
import Foundation

/// Times cluster icon drawing: TANDm 40×40 icons with varying counts into in-memory surfaces, with and without PNG encoding.
struct MarkerBenchmark {
    /// Icons drawn per measurement.
    var icons: Int

    /// The figures measured.
    struct Result {
        var usPerMarker: Double
        var usPerMarkerPNG: Double
        var icons: Int
        var averagePNGBytes: Double

        var json: String {
            String(format: "{\"area\":\"markers\",\"us_per_marker\":%.3f,\"us_per_marker_png\":%.3f,\"icons\":%d,\"png_bytes_mean\":%.1f}",
                   usPerMarker, usPerMarkerPNG, icons, averagePNGBytes)
        }

        var text: String {
            String(format: "markers: %.2f µs per 40×40 icon, %.2f µs with PNG encoding (median of %d; mean PNG %.0f bytes)",
                   usPerMarker, usPerMarkerPNG, icons, averagePNGBytes)
        }
    }

    func run() throws -> Result {
        let renderer = try MarkerRenderer(style: StyleLocator.load("tandm"))
        // Counts 2…1001 with a varying tricycle share: 1,000 distinct labels, each shaped once and then reused,
        // as a map or sprite sheet reuses them.
        let cases = (0..<1000).map { index -> CategoryCounts in
            let total = 2 + index
            let tricycles = (index * 7) % (total + 1)
            return CategoryCounts([("tricycle", tricycles), ("bicycle", total - tricycles)])
        }
        for counts in cases { _ = try renderer.canvas(counts) }   // warm: fonts loaded, labels shaped

        var drawTimes: [Double] = [], pngTimes: [Double] = []
        drawTimes.reserveCapacity(icons)
        pngTimes.reserveCapacity(icons)
        var bytes = 0
        for index in 0..<icons {
            let counts = cases[index % cases.count]
            let start = DispatchTime.now().uptimeNanoseconds
            let canvas = try renderer.canvas(counts)
            let drawn = DispatchTime.now().uptimeNanoseconds
            drawTimes.append(Double(drawn - start) / 1000)
            let png = try renderer.render(counts, format: .png)
            pngTimes.append(Double(DispatchTime.now().uptimeNanoseconds - drawn) / 1000)
            bytes += png.count
            withExtendedLifetime(canvas) {}
        }
        return Result(usPerMarker: median(drawTimes), usPerMarkerPNG: median(pngTimes), icons: icons,
                      averagePNGBytes: Double(bytes) / Double(icons))
    }

    private func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }
}
