import CZlib
import DeclutterPNG
import DeclutterRender
import DeclutterStyle
import DeclutterSupport
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
        #expect(
            "\(RenderError.unknownFormat(path: "icon.jpg"))"
                == "icon.jpg: unknown output format; expected a file name ending in .png, .svg or .pdf")
    }

    @Test func sizesBeyondTheLimitAreRefusedBeforeAllocating() {
        #expect(throws: RenderError.sizeOutOfRange(width: 20_000, height: 10, limit: 16_384)) {
            try Canvas(width: 10_000, height: 5, scale: 2, format: .png)
        }
        #expect(throws: RenderError.sizeOutOfRange(width: 0, height: 10, limit: 16_384)) {
            try Surface(imageWidth: 0, height: 10)
        }
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

    @Test func damagedTilesAreRefusedWithTheReason() throws {
        // A 4×4 opaque image, stored (zlib level 0) without filters, as RGB.
        let good = try PNGEncoder(level: 0).encode(
            rgba: (0..<16).flatMap { [UInt8($0 % 4), UInt8($0 / 4), 0, 255] }, width: 4, height: 4)
        #expect(good.count == 120 && good[25] == 2)
        var badFilter = [UInt8](good)
        // The first scanline's filter byte sits just after the zlib header and the stored block's 5-byte header.
        let idat = 8 + 25 + 8
        badFilter[idat + 7] = 9
        // The stream's Adler-32 and the chunk's CRC made to fit, so that only the filter is wrong.
        let adler = UInt32(
            badFilter.withUnsafeBufferPointer {
                adler32(1, $0.baseAddress! + idat + 7, uInt(badFilter.count - 20 - (idat + 7)))
            })
        badFilter.replaceSubrange(
            badFilter.count - 20..<badFilter.count - 16,
            with: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: adler >> $0) })
        let crc = UInt32(
            badFilter.withUnsafeBufferPointer {
                crc32(0, $0.baseAddress! + idat - 4, uInt(badFilter.count - 16 - (idat - 4)))
            })
        badFilter.replaceSubrange(
            badFilter.count - 16..<badFilter.count - 12,
            with: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: crc >> $0) })
        func message(_ data: Data) -> String {
            do {
                _ = try Surface(pngData: data, source: "tile 1/2/3")
                return ""
            } catch { return "\(error)" }
        }
        #expect(message(good) == "")
        #expect(message(Data(badFilter)) == "cannot read image tile 1/2/3: unknown row filter type 9")
        #expect(
            message(good.prefix(60)) == "cannot read image tile 1/2/3: the IDAT chunk runs past the end of the file")
        let big = try PNGEncoder().encode(rgba: [UInt8](repeating: 255, count: 20_000 * 4), width: 20_000, height: 1)
        #expect(message(big) == "cannot read image tile 1/2/3: the image size 20000×1 is over 16384 px per side")
    }

    @Test func surfacesEncodeTheirPixels() throws {
        let canvas = try Canvas(width: 37, height: 23, scale: 1, format: .png)
        canvas.context.circle(centerX: 10, centerY: 10, radius: 8)
        canvas.context.fill(RGBAColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.5))
        let png = try canvas.data()
        #expect(png[25] == 6)
        #expect(try RGBAImage(png: png) == RGBAImage(surface: canvas.surface))
        #expect(try PNGEncoder().encode(canvas.surface) == png)
        let vector = try Canvas(width: 10, height: 10, format: .svg)
        #expect(throws: RenderError.encoding("the surface has no pixels")) { try PNGEncoder().encode(vector.surface) }
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
        try FileManager.default.createDirectory(
            at: blocked.appendingPathComponent("inside"), withIntermediateDirectories: true)
        #expect(throws: OutputError.self) { try FileSystem.writeAtomically(Data([1]), to: blocked) }
        #expect(
            throws: OutputError(
                path: folder.path + "/missing/out.png", reason: "the folder \(folder.path)/missing does not exist")
        ) {
            try FileSystem.writeAtomically(Data([1]), to: folder.appendingPathComponent("missing/out.png"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["dir.png", "out.png"])
    }
}
