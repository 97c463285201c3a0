import Foundation
import Testing

@testable import DeclutterPNG

/// The Declutter side of `scripts/png-vs-libpng/compare.py`, which sets `DECLUTTER_PNG_COMPARISON` to a folder of PNG
/// files: each FILE is decoded to straight RGBA and FILE.ours written beside it, "ok WIDTH HEIGHT\n" and the pixels or
/// "error MESSAGE\n", as the script's libpng reader writes FILE.libpng. It lives among the tests so that no shipped
/// product carries it; without the variable it does not run.
@Suite struct LibPNGComparisonDriver {
    static let folder = ProcessInfo.processInfo.environment["DECLUTTER_PNG_COMPARISON"]

    @Test(.enabled(if: folder != nil, "set DECLUTTER_PNG_COMPARISON to a folder of PNG files"))
    func decodeEveryFileInTheFolder() throws {
        let folder = URL(fileURLWithPath: try #require(Self.folder))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".png") }
            .sorted()
        for name in names {
            let file = folder.appendingPathComponent(name)
            var result: Data
            do {
                let image = try PNGDecoder.decode(try Data(contentsOf: file))
                result = Data("ok \(image.width) \(image.height)\n".utf8) + Data(image.pixels)
            } catch {
                result = Data("error \(error)\n".utf8)
            }
            try result.write(to: folder.appendingPathComponent(name + ".ours"))
        }
        #expect(!names.isEmpty, "no PNG files in \(folder.path)")
    }
}
