import DeclutterMapContent
import DeclutterRender
import DeclutterStyle
import DeclutterTesting
import Foundation
import Testing

@Suite struct SpriteSheetTests {
    let goldens: GoldenFiles
    init() throws { goldens = try GoldenFiles(suite: "SpriteSheetTests") }

    func file(_ sheet: SpriteSheet, _ name: String) throws -> Data {
        try #require(sheet.files.first { $0.name == name }?.data)
    }

    /// A pixel-for-pixel crop of a decoded sheet.
    func crop(_ image: RGBAImage, _ entry: SpriteSheet.Entry) -> RGBAImage {
        var pixels: [UInt8] = []
        for y in entry.y..<entry.y + entry.height {
            let start = (y * image.width + entry.x) * 4
            pixels += image.pixels[start..<start + entry.width * 4]
        }
        return RGBAImage(width: entry.width, height: entry.height, pixels: pixels)
    }

    @Test func tandmSheetGeometryAndPixels() throws {
        let style = try bundledStyle("tandm")
        let sheet = try SpriteSheetBuilder(style: style).build(ratios: [1, 2], spacing: 1)
        #expect(
            sheet.files.map(\.name) == [
                "sprite.png", "sprite.json", "sprite@2x.png", "sprite@2x.json", "sprite.manifest.json", "sprite.svg",
            ])
        #expect(sheet.files.map(\.name) == SpriteSheetBuilder.fileNames(ratios: [2, 1, 2]))
        #expect(sheet.nameCount == 1215 && sheet.imageCount == 1179)
        #expect(sheet.fill >= 0.9)  // 0.94 with a pixel between images; 0.99 without
        let one = try #require(sheet.index[1]), two = try #require(sheet.index[2])
        #expect(one.count == 1215 && two.count == 1215)

        let image1 = try RGBAImage(png: file(sheet, "sprite.png")),
            image2 = try RGBAImage(png: file(sheet, "sprite@2x.png"))
        #expect(image2.width == 2 * image1.width && image2.height == 2 * image1.height)
        // @2x is exactly twice @1x; everything lies inside its sheet; distinct images never overlap (spacing 1 apart).
        for (name, entry) in one {
            let double = try #require(two[name])
            let doubled: [Int] = [double.x, double.y, double.width, double.height]
            #expect(doubled == [2 * entry.x, 2 * entry.y, 2 * entry.width, 2 * entry.height])
            #expect(entry.pixelRatio == 1 && double.pixelRatio == 2)
            #expect(entry.x + entry.width <= image1.width && entry.y + entry.height <= image1.height)
        }
        let distinct = Array(Set(one.values.map { [$0.x, $0.y, $0.width, $0.height] }))
        #expect(distinct.count == 1179)
        let sorted = distinct.sorted { $0[1] != $1[1] ? $0[1] < $1[1] : $0[0] < $1[0] }
        for (index, a) in sorted.enumerated() {
            for b in sorted[(index + 1)...] where b[1] < a[1] + a[3] + 1 {
                #expect(
                    a[0] + a[2] + 1 <= b[0] || b[0] + b[2] + 1 <= a[0] || a[1] + a[3] + 1 <= b[1],
                    "\(a) and \(b) overlap")
            }
        }

        // Each image equals `declutter marker` for the counts the manifest gives, at both ratios.
        let manifest = try JSONDecoder().decode(SpriteManifest.self, from: file(sheet, "sprite.manifest.json"))
        #expect(manifest.entries.count == 1215)
        let renderer = try MarkerRenderer(style: style)
        for name in [
            "marker-bicycle", "marker-unicycle", "cluster-2-tricycle50-bicycle50", "cluster-42-tricycle30-bicycle70",
            "cluster-99-tricycle90-bicycle10", "cluster-100+-tricycle0-bicycle100", "cluster-10k+-tricycle60-bicycle40",
            "cluster-57-unicycle100", "cluster-1k+-unicycle100",
        ] {
            let entry = try #require(manifest.entries[name])
            for (ratio, image, index) in [(1, image1, one), (2, image2, two)] {
                let drawn = try RGBAImage(
                    png: renderer.render(entry.categoryCounts, label: entry.label, scale: Double(ratio), format: .png))
                #expect(crop(image, try #require(index[name])) == drawn, "\(name) @\(ratio)x")
            }
        }

        let svg = String(decoding: try file(sheet, "sprite.svg"), as: UTF8.self)
        #expect(svg.components(separatedBy: "<symbol id=").count - 1 == 1215)
        let ids = svg.components(separatedBy: " id=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(Set(ids).count == ids.count)
        #expect(
            svg.contains(
                ##"<symbol id="cluster-2-tricycle50-bicycle50" viewBox="0 0 40 40"><use href="#cluster-2-tricycle70-bicycle30""##
            ))
    }

    @Test func goldenSheet() throws {
        var style = try bundledStyle("tandm")
        style.sprites = SpriteSettings(exactCounts: 2...4, countSteps: [100], shareStep: 0.5)
        let sheet = try SpriteSheetBuilder(style: style).build(ratios: [1, 2], svg: false)
        try goldens.verifyPNG(file(sheet, "sprite.png"), test: "goldenSheet", name: "1x")
        try goldens.verifyPNG(file(sheet, "sprite@2x.png"), test: "goldenSheet", name: "2x")
        try goldens.verifyText(
            String(decoding: try file(sheet, "sprite.json"), as: UTF8.self), test: "goldenSheet", name: "1x",
            fileExtension: "json")
    }

    @Test func progressCountsEveryImage() throws {
        var style = try bundledStyle("default")
        style.sprites = SpriteSettings(exactCounts: 2...3, countSteps: [], shareStep: 1)
        var calls: [(Int, Int)] = []
        let sheet = try SpriteSheetBuilder(style: style).build(ratios: [1, 3]) { calls.append(($0, $1)) }
        #expect(sheet.imageCount == 7 + 7 * 2)
        #expect(calls.count == 21 * 3)
        let last: [Int] = calls.last.map { [$0.0, $0.1] } ?? []
        #expect(last == [63, 63])
    }
}
