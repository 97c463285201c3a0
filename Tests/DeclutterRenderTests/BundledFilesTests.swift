import DeclutterRender
import DeclutterStyle
import DeclutterSupport
import DeclutterTestSupport
import Foundation
import Testing

@Suite struct BundledFilesTests {
    let packageRoot = stylesFolder.deletingLastPathComponent()

    /// The assembler does not track `.incbin` files, so an edited style would ship stale: this says so.
    @Test func everyBundledFileIsTheFileInThePackage() throws {
        #expect(BundledFiles.paths.count == 25)
        for path in BundledFiles.paths {
            let onDisk = try Data(contentsOf: packageRoot.appendingPathComponent(path))
            #expect(
                BundledFiles.data(path) == onDisk,
                "\(path) differs from its bundled copy: touch Sources/CDeclutterResources/resources.S and rebuild")
        }
        #expect(BundledFiles.data("Styles/nothing.json") == nil)
    }

    @Test func bundledStylesLoadWithTheirGlyphs() throws {
        #expect(BundledFiles.styleNames == ["airports", "default", "tandm"])
        let bundled = try #require(try BundledFiles.style(named: "tandm"))
        let fromDisk = try bundledStyle("tandm")
        #expect(
            bundled.glyphImages.keys.sorted() == [
                "tandm/Bicycle.png", "tandm/Bicycle_2x.png", "tandm/Tricycle.png",
                "tandm/Tricycle_2x.png", "tandm/Unicycle.png", "tandm/Unicycle_2x.png",
            ])
        #expect(bundled.glyphImages == fromDisk.glyphImages)
        #expect(bundled.categories == fromDisk.categories)
        #expect(try BundledFiles.style(named: "nothing") == nil)
        // A bundled style draws the same icon as the same style read from the folder.
        let one = try MarkerRenderer(style: bundled).canvas(counts(["bicycle": 1]), scale: 2)
        let other = try MarkerRenderer(style: fromDisk).canvas(counts(["bicycle": 1]), scale: 2)
        #expect(try one.data() == other.data())
    }
}
