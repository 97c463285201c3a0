import DeclutterPNG
import DeclutterRender
import DeclutterServer
import DeclutterStyle
import Foundation

/// Times cluster icon drawing: TANDm 40×40 icons with varying counts into in-memory surfaces, then the same
/// with PNG encoding, and cairo's own PNG writer on the same icons for reference; then encoding alone.
struct MarkerBenchmark {
    /// Icons drawn per measurement.
    var icons: Int

    /// The figures measured, as medians per icon in microseconds.
    struct Result {
        var usPerMarker: Double
        var usPerMarkerPNG: Double
        var usPerMarkerCairoPNG: Double
        var usPerPNG: Double
        var icons: Int
        var meanPNGBytes: Double
        var meanCairoPNGBytes: Double

        var json: String {
            String(
                format: """
                    {"area":"markers","us_per_marker":%.2f,"us_per_marker_png":%.2f,"us_per_marker_cairo_png":%.2f,\
                    "us_per_png":%.2f,"icons":%d,"png_bytes_mean":%.0f,"cairo_png_bytes_mean":%.0f}
                    """, usPerMarker, usPerMarkerPNG, usPerMarkerCairoPNG, usPerPNG, icons, meanPNGBytes,
                meanCairoPNGBytes)
        }

        var text: String {
            String(
                format: """
                    markers (median of %d TANDm 40×40 icons, best of 3 rounds):
                      draw                       %6.2f µs
                      draw + PNG                 %6.2f µs   (mean %.0f bytes)
                      draw + cairo's PNG writer  %6.2f µs   (mean %.0f bytes)
                      PNG alone                  %6.2f µs
                    """, icons, usPerMarker, usPerMarkerPNG, meanPNGBytes, usPerMarkerCairoPNG, meanCairoPNGBytes,
                usPerPNG)
        }
    }

    func run() throws -> Result {
        let renderer = try MarkerRenderer(style: StyleLocator.load("tandm"))
        // Counts 2…1001 with a varying tricycle share: 1,000 distinct labels, each shaped once and then reused,
        // as a map or a sprite sheet reuses them.
        let cases = (0..<1000).map { index -> CategoryCounts in
            let total = 2 + index
            let tricycles = (index * 7) % (total + 1)
            return CategoryCounts([("tricycle", tricycles), ("bicycle", total - tricycles)])
        }
        for counts in cases { _ = try renderer.canvas(counts) }  // warm: fonts loaded, labels shaped

        var pngBytes = 0, cairoBytes = 0  // over all three rounds
        let draw = try medianMicroseconds { index in _ = try renderer.canvas(cases[index % cases.count]) }
        let png = try medianMicroseconds { index in
            pngBytes += try renderer.canvas(cases[index % cases.count]).data().count
        }
        let cairo = try medianMicroseconds { index in
            cairoBytes += try renderer.canvas(cases[index % cases.count]).surface.cairoPNGData().count
        }
        // Encoding alone, of icons drawn beforehand (the encoder keeps nothing between calls).
        let drawn = try cases.map { try renderer.canvas($0).surface }
        let encoder = PNGEncoder()
        let encodeOnly = try medianMicroseconds { index in _ = try encoder.encode(drawn[index % drawn.count]) }
        return Result(
            usPerMarker: draw, usPerMarkerPNG: png, usPerMarkerCairoPNG: cairo, usPerPNG: encodeOnly, icons: icons,
            meanPNGBytes: Double(pngBytes) / Double(3 * icons),
            meanCairoPNGBytes: Double(cairoBytes) / Double(3 * icons))
    }

    /// The median time of `icons` calls of `body`, each timed alone; the lowest median of three rounds, so a
    /// burst of other work on the machine does not decide the figure.
    private func medianMicroseconds(_ body: (Int) throws -> Void) throws -> Double {
        var best = Double.infinity
        var times = [Double](repeating: 0, count: icons)
        for _ in 0..<3 {
            for index in 0..<icons {
                let start = DispatchTime.now().uptimeNanoseconds
                try body(index)
                times[index] = Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
            }
            times.sort()
            best = min(best, times[icons / 2])
        }
        return best
    }
}
