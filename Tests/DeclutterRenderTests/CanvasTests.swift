import DeclutterCore
import DeclutterRender
import DeclutterTesting
import Foundation
import Testing

@Suite struct CanvasTests {
    @Test func formatFromExtension() throws {
        #expect(try OutputFormat(path: "a/b/icon.PNG") == .png)
        #expect(try OutputFormat(path: "icon.svg") == .svg)
        #expect(try OutputFormat(path: "report.pdf") == .pdf)
        #expect(throws: RenderError.unknownFormat(path: "icon.jpg")) { try OutputFormat(path: "icon.jpg") }
        #expect(throws: RenderError.unknownFormat(path: "icon")) { try OutputFormat(path: "icon") }
        #expect("\(RenderError.unknownFormat(path: "icon.jpg"))" == "icon.jpg: unknown output format; expected a file name ending in .png, .svg or .pdf")
    }

    @Test func sizesBeyondTheLimitAreRefusedBeforeAllocating() {
        #expect(throws: RenderError.sizeOutOfRange(width: 20_000, height: 10, limit: 16_384)) {
            try Canvas(width: 10_000, height: 5, scale: 2, format: .png)
        }
        #expect(throws: RenderError.sizeOutOfRange(width: 0, height: 10, limit: 16_384)) { try Surface(imageWidth: 0, height: 10) }
        #expect(throws: RenderError.self) { try Canvas(width: .nan, height: 5, format: .png) }
    }

    @Test func svgIsInPixelsWithAViewBoxInPoints() throws {
        let canvas = try Canvas(width: 40, height: 30, scale: 2, format: .svg)
        canvas.context.rectangle(x: 0, y: 0, width: 10, height: 10)
        canvas.context.fill(.black)
        let svg = String(decoding: try canvas.data(), as: UTF8.self)
        #expect(svg.contains(#"width="40px" height="30px" viewBox="0 0 40 30""#))
        #expect(svg.contains(#"<g id="surface1">"#))
    }

    @Test func pdfIsOnePageAndReproducible() throws {
        func pdf() throws -> Data {
            let canvas = try Canvas(width: 40, height: 40, format: .pdf)
            canvas.context.circle(centerX: 20, centerY: 20, radius: 20)
            canvas.context.fill(.black)
            return try canvas.data()
        }
        let first = try pdf(), second = try pdf()
        #expect(first.starts(with: Data("%PDF-1.".utf8)))
        #expect(String(decoding: first, as: UTF8.self).contains("/MediaBox [ 0 0 40 40 ]"))
        #expect(first == second)
    }

    @Test(arguments: [PNGEncoder(), PNGEncoder(compression: .pixelRuns), PNGEncoder(level: 0), PNGEncoder(level: 9, filter: .adaptive),
                      PNGEncoder(level: 1, filter: .up, strategy: .runLength), PNGEncoder(level: 6, filter: .adaptive, strategy: .huffmanOnly)])
    func pngRoundTripsExactly(encoder: PNGEncoder) throws {
        // A transparent image with partial alpha and an opaque one (written as RGB).
        for opaque in [false, true] {
            let canvas = try Canvas(width: 37, height: 23, scale: 1, format: .png)
            if opaque {
                canvas.context.rectangle(x: 0, y: 0, width: 37, height: 23)
                canvas.context.fill(RGBAColor(red: 0.2, green: 0.4, blue: 0.6))
            }
            for index in 0..<12 {
                canvas.context.circle(centerX: Double(index * 3), centerY: Double(index * 2), radius: Double(2 + index))
                canvas.context.fill(RGBAColor(red: Double(index) / 12, green: 0.5, blue: 1 - Double(index) / 12, alpha: 0.3 + Double(index) / 20))
            }
            let png = try canvas.data(encoder: encoder)
            #expect(png[25] == (opaque ? 2 : 6))    // IHDR colour type: RGB or RGBA
            #expect(Array(png[16..<24]) == [0, 0, 0, 37, 0, 0, 0, 23])
            #expect(try RGBAImage(png: png) == RGBAImage(surface: canvas.surface))
        }
    }

    @Test func atomicWritesLeaveNothingBehindOnFailure() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("declutter-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("out.png")
        try FileSystem.writeAtomically(Data([1, 2, 3]), to: target)
        #expect(try Data(contentsOf: target) == Data([1, 2, 3]))
        // A directory where the file should go: the rename fails and no temporary file is left.
        let blocked = folder.appendingPathComponent("dir.png")
        try FileManager.default.createDirectory(at: blocked.appendingPathComponent("inside"), withIntermediateDirectories: true)
        #expect(throws: OutputError.self) { try FileSystem.writeAtomically(Data([1]), to: blocked) }
        #expect(throws: OutputError(path: folder.path + "/missing/out.png", reason: "the folder \(folder.path)/missing does not exist")) {
            try FileSystem.writeAtomically(Data([1]), to: folder.appendingPathComponent("missing/out.png"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["dir.png", "out.png"])
    }
}
