import DeclutterRender
import DeclutterStyle
import DeclutterTesting
import Foundation
import Testing

/// Golden images of every marker the foundation draws; references live in `Snapshots/MarkerGoldenTests/`.
@Suite struct MarkerGoldenTests {
    let goldens: GoldenFiles
    init() throws { goldens = try GoldenFiles(suite: "MarkerGoldenTests") }

    /// TANDm cluster icons: the sample's bicycle/tricycle colouring at every count range the issue names.
    static let tandmCounts: [(String, CategoryCounts)] = [
        ("2", counts(["bicycle": 2])),
        ("5", counts(["tricycle": 2, "bicycle": 3])),
        ("42", counts(["tricycle": 12, "bicycle": 30])),
        ("999", counts(["tricycle": 333, "bicycle": 666])),
        ("12345", counts(["tricycle": 4115, "bicycle": 8230])),
    ]

    @Test(arguments: [1, 2, 3])
    func tandmClusterIcons(scale: Int) throws {
        let renderer = try MarkerRenderer(style: bundledStyle("tandm"))
        for (name, counts) in Self.tandmCounts {
            let canvas = try renderer.canvas(counts, scale: Double(scale))
            #expect(canvas.surface.pixelWidth == 40 * scale && canvas.surface.pixelHeight == 40 * scale)
            try goldens.verifyPNG(canvas.data(), test: "tandmClusterIcons", name: "\(name)@\(scale)x")
        }
    }

    @Test func tandmUnicycleIcon() throws {
        let renderer = try MarkerRenderer(style: bundledStyle("tandm"))
        for scale in [1, 2] {
            try goldens.verifyPNG(
                renderer.render(counts(["unicycle": 7]), scale: Double(scale), format: .png),
                test: "tandmUnicycleIcon", name: "7@\(scale)x")
        }
    }

    @Test(arguments: ["bicycle", "tricycle", "unicycle"])
    func tandmBalloons(category: String) throws {
        let renderer = try MarkerRenderer(style: bundledStyle("tandm"))
        for scale in [1, 2, 3] {
            let canvas = try renderer.canvas(CategoryCounts([(category, 1)]), scale: Double(scale))
            #expect(canvas.surface.pixelWidth == 30 * scale && canvas.surface.pixelHeight == 40 * scale)
            try goldens.verifyPNG(canvas.data(), test: "tandmBalloons", name: "\(category)@\(scale)x")
        }
    }

    @Test func defaultStyleSet() throws {
        let renderer = try MarkerRenderer(style: bundledStyle("default"))
        let set: [(String, CategoryCounts)] = [
            ("blue-1", counts(["blue": 1])),
            ("orange-1", counts(["orange": 1])),
            ("blue-7", counts(["blue": 7])),
            ("blue-30-orange-12", counts(["blue": 30, "orange": 12])),
            ("three-way-999", counts(["blue": 500, "orange": 300, "green": 199])),
            (
                "seven-way-1234",
                counts([
                    "blue": 400, "orange": 300, "green": 200, "vermilion": 150, "sky": 100, "purple": 50, "grey": 34,
                ])
            ),
            ("green-1234567", counts(["green": 1_234_567])),
        ]
        for (name, counts) in set {
            for scale in [1, 2] {
                try goldens.verifyPNG(
                    renderer.render(counts, scale: Double(scale), format: .png),
                    test: "defaultStyleSet", name: "\(name)@\(scale)x")
            }
        }
    }

    @Test func svgReferences() throws {
        let tandm = try MarkerRenderer(style: bundledStyle("tandm"))
        let cases: [(String, MarkerRenderer, CategoryCounts)] = [
            ("tandm-5", tandm, counts(["tricycle": 2, "bicycle": 3])),
            ("tandm-12345", tandm, counts(["tricycle": 4115, "bicycle": 8230])),
            ("tandm-bicycle", tandm, counts(["bicycle": 1])),
            (
                "default-three-way", try MarkerRenderer(style: bundledStyle("default")),
                counts(["blue": 5, "orange": 3, "green": 2])
            ),
        ]
        for (name, renderer, counts) in cases {
            let svg = String(decoding: try renderer.render(counts, format: .svg), as: UTF8.self)
            try goldens.verifyText(svg, test: "svgReferences", name: name)
        }
    }
}
