import DeclutterCommandLine
import DeclutterMap
import DeclutterRender
import DeclutterStyle
import DeclutterTesting
import Foundation

/// Times a whole TANDm sprite build at @1x and @2x: drawing every image, packing, PNG sheets and JSON indexes.
struct SpritesBenchmark {
    /// Builds timed; the median is reported.
    var runs: Int

    struct Result {
        var milliseconds: Double
        var names: Int
        var images: Int
        var fill: Double
        var bytes: Int

        /// Images drawn per second: each distinct image at both ratios, encoding included.
        var iconsPerSecond: Double { Double(images * 2) / (milliseconds / 1000) }

        var json: String {
            String(
                format:
                    "{\"area\":\"sprites\",\"ms\":%.1f,\"icons\":%d,\"images\":%d,\"icons_per_s\":%.0f,\"fill\":%.4f,\"png_bytes\":%d}",
                milliseconds, names, images, iconsPerSecond, fill, bytes)
        }

        var text: String {
            String(
                format:
                    "sprites: %.1f ms for TANDm @1x + @2x (%d names, %d images, %.0f images drawn per second, %.1f %% fill, %d PNG bytes)",
                milliseconds, names, images, iconsPerSecond, fill * 100, bytes)
        }
    }

    func run() throws -> Result {
        let builder = try SpriteSheetBuilder(style: StyleLocator.load("tandm"))
        _ = try builder.build(ratios: [1, 2], svg: false)  // warm: fonts loaded, labels shaped
        var times: [Double] = []
        var last: SpriteSheet?
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            last = try builder.build(ratios: [1, 2], svg: false)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        times.sort()
        let sheet = try last ?? builder.build(ratios: [1, 2], svg: false)
        let bytes = sheet.files.filter { $0.name.hasSuffix(".png") }.reduce(0) { $0 + $1.data.count }
        return Result(
            milliseconds: times[times.count / 2], names: sheet.nameCount, images: sheet.imageCount,
            fill: sheet.fill, bytes: bytes)
    }
}
