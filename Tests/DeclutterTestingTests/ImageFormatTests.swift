import DeclutterTesting
import Foundation
import Testing

/// JPEG and WebP screenshots, decoded by libjpeg-turbo and libwebp, against Pillow's decoding of the same files
/// (`Fixtures/formats`: each `NAME.EXT` written by Pillow 13, its pixels as Pillow reads them in `NAME.EXT.pillow.png`).
@Suite struct ImageFormatTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures/formats")

    static func data(_ name: String) throws -> Data { try Data(contentsOf: folder.appendingPathComponent(name)) }

    @Test(arguments: [
        "photo.jpg", "photo-444.jpg", "photo-changed.jpg", "progressive.jpg", "grey.jpg", "alpha-lossless.webp",
        "alpha-lossy.webp",
    ])
    func decodesAsPillowDoes(name: String) throws {
        let image = try RGBAImage(contentsOf: Self.folder.appendingPathComponent(name))
        let pillow = try RGBAImage(contentsOf: Self.folder.appendingPathComponent(name + ".pillow.png"))
        #expect(image.width == 40 && image.height == 24)
        #expect(image.pixels == pillow.pixels)
    }

    @Test func formatsAreToldByTheirFirstBytes() throws {
        #expect(ImageFormat(signatureOf: try Self.data("photo.jpg")) == .jpeg)
        #expect(ImageFormat(signatureOf: try Self.data("alpha-lossy.webp")) == .webp)
        #expect(ImageFormat(signatureOf: try Self.data("photo.jpg.pillow.png")) == .png)
        #expect(ImageFormat(signatureOf: Data("RIFF\0\0\0\0WAVE".utf8)) == nil)
        #expect(ImageFormat(fileName: "a/B.JPEG") == .jpeg && ImageFormat(fileName: "x.mask.png") == .png)
        #expect(ImageFormat(fileName: "x.gif") == nil && ImageFormat(fileName: "webp") == nil)
        #expect(ImageFormat(fileName: "shots.jpg/home") == nil && ImageFormat(fileName: "v1.2/home.WebP") == .webp)
        // A JPEG named .png is read as the JPEG it is.
        let renamed = try RGBAImage(encoded: try Self.data("photo.jpg"), name: "photo.png")
        #expect(renamed.width == 40)
    }

    @Test func damagedAndOversizedImagesAreNamed() throws {
        let jpeg = try Self.data("photo.jpg"), webp = try Self.data("alpha-lossy.webp")
        func reason(_ data: Data, _ name: String, limit: Int = 1 << 20) -> String? {
            do {
                _ = try RGBAImage(encoded: data, name: name, pixelLimit: limit)
                return nil
            } catch let error as ImageReadError {
                return "\(error)"
            } catch {
                return "unexpected \(error)"
            }
        }
        // Cut short: libjpeg-turbo would fill the rest grey with a warning; a screenshot cut short must not pass.
        #expect(
            reason(jpeg.prefix(jpeg.count - 100), "cut.jpg")
                == "cannot read image cut.jpg: JPEG data libjpeg-turbo cannot decode: Premature end of JPEG file")
        #expect(reason(webp.prefix(webp.count - 40), "cut.webp") == "cannot read image cut.webp: WebP data cut short")
        #expect(
            reason(Data("not a jpeg".utf8), "a.jpg")
                == "cannot read image a.jpg: not a JPEG file (its first bytes are not one's)")
        #expect(
            reason(Data("not a png".utf8), "a.png")
                == "cannot read image a.png: not a PNG file (the signature is missing)")
        #expect(
            reason(jpeg, "big.jpg", limit: 959)
                == "cannot read image big.jpg: 40×24 px, more than the pixel limit (959 pixels)")
        #expect(reason(jpeg, "big.jpg", limit: 960) == nil)
        #expect(reason(Data(), "e.webp") == "cannot read image e.webp: an empty file")
        // Pillow reads CMYK (Pillow wrote this one); TurboJPEG converts it to nothing else, and screenshots are RGB.
        #expect(
            reason(try Self.data("cmyk.jpg"), "cmyk.jpg")
                == "cannot read image cmyk.jpg: a CMYK JPEG, which is not read (screenshots are RGB); convert it to RGB"
        )
    }

    /// No two images share a diff picture: a PNG keeps its name, anything else gets `.png` added, and so does a PNG
    /// whose name without `.png` is an image's name itself.
    @Test func diffNamesAreOnePerImage() {
        func diff(_ path: String) -> String { ImageDifference(path: path, status: .changed).diffName }
        #expect(diff("a/home.png") == "a/home.png" && diff("B.PNG") == "B.PNG")
        #expect(diff("home.jpg") == "home.jpg.png" && diff("x.WebP") == "x.WebP.png")
        #expect(diff("home.jpg.png") == "home.jpg.png.png" && diff("home.png.png") == "home.png.png.png")
        let paths = ["home.jpg", "home.jpg.png", "home.jpg.png.png", "home.png", "home.png.png", "home.webp.PNG"]
        #expect(Set(paths.map(diff)).count == paths.count)
    }
}
