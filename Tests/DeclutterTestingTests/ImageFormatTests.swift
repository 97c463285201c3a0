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
        "photo.jpg", "photo-444.jpg", "photo-changed.jpg", "alpha-lossless.webp", "alpha-lossy.webp",
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
                == "cannot read image cut.jpg: damaged JPEG data (libjpeg-turbo: Premature end of JPEG file)")
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
    }
}
