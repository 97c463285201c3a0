import DeclutterPlacement
import DeclutterStyle
import DeclutterSupport
import DeclutterTestSupport
import Foundation
import Testing

/// The package's `Styles/` folder, found from this file.
@Suite struct StyleTests {
    @Test func tandmReproducesTheSample() throws {
        let style = try MarkerStyle.load(contentsOf: stylesFolder.appendingPathComponent("tandm.json"))
        #expect(style.categories.map(\.name) == ["tricycle", "bicycle", "unicycle"])
        #expect(style.category(named: "unicycle")?.color == RGBAColor(red: 0.668, green: 0.475, blue: 0.259))
        #expect(style.category(named: "bicycle")?.color == RGBAColor(red: 1, green: 0.4736868143081665, blue: 0))
        #expect(
            style.category(named: "tricycle")?.color
                == RGBAColor(red: 0.5965669751167297, green: 0.7060597538948059, blue: 0))
        #expect(style.category(named: "unicycle")?.solidCluster == true)
        #expect(style.category(named: "bicycle")?.clusteringIdentifier == "bicycle")
        #expect(style.category(named: "tricycle")?.clusteringIdentifier == "bicycle")
        #expect(style.category(named: "unicycle")?.clusteringIdentifier == "unicycle")
        #expect(style.category(named: "unicycle")?.displayPriority == .defaultLow)
        #expect(style.category(named: "bicycle")?.displayPriority == .defaultHigh)
        #expect(style.font == "DejaVu Sans Bold")
        let bucket = style.cluster.bucket(for: 42)
        #expect([bucket.diameter, bucket.innerDiameter, bucket.fontSize] == [40, 24, 20])
        #expect(style.cluster.collisionMode == .circle)
        #expect(style.cluster.centerOffset == [0, -10])
        #expect(
            style.category(named: "bicycle")?.glyph == .image(path: "tandm/Bicycle.png", path2x: "tandm/Bicycle_2x.png")
        )
        #expect(
            style.resolve("tandm/Bicycle.png").path
                == stylesFolder.appendingPathComponent("tandm/Bicycle.png").standardizedFileURL.path)
    }

    @Test func defaultStyleBucketsGrowWithCount() throws {
        let style = try MarkerStyle.load(contentsOf: stylesFolder.appendingPathComponent("default.json"))
        #expect(
            [2, 9, 10, 99, 100, 999, 1000, 50_000].map { style.cluster.bucket(for: $0).diameter } == [
                34, 34, 40, 40, 48, 48, 56, 56,
            ])
        #expect(style.categories.count == 7)
    }

    @Test func styleRoundTripsThroughJSON() throws {
        let style = try MarkerStyle.load(contentsOf: stylesFolder.appendingPathComponent("tandm.json"))
        let data = try JSONEncoder().encode(style)
        let decoded = try MarkerStyle.decode(data, file: "round-trip", directory: style.directory)
        #expect(decoded.file == "round-trip" && style.file == stylesFolder.appendingPathComponent("tandm.json").path)
        var renamed = decoded
        renamed.file = style.file
        #expect(renamed == style)
    }

    /// The error a style text gives, as the command line prints it.
    private func error(_ json: String) -> String? {
        do {
            _ = try MarkerStyle.decode(Data(json.utf8), file: "bad.json", directory: stylesFolder)
            return nil
        } catch {
            return "\(error)"
        }
    }

    private let cluster =
        #""cluster": {"buckets": [{"minimumCount": 2, "diameter": 40, "innerDiameter": 24, "fontSize": 20}]}"#

    @Test func errorsNameTheFieldAndTheExpectation() {
        #expect(
            error(##"{"font": "DejaVu Sans", \##(cluster), "categories": [{"name": "a", "color": "blue"}]}"##)
                == ##"bad.json: categories[0].color: expected a colour: "#RRGGBB", "#RRGGBBAA" or [red, green, blue(, alpha)] with numbers in 0…1, got "blue""##
        )
        #expect(
            error(##"{"font": "DejaVu Sans", \##(cluster), "categories": [{"name": "a", "color": [1, 2, 0]}]}"##)
                == ##"bad.json: categories[0].color: expected a colour: "#RRGGBB", "#RRGGBBAA" or [red, green, blue(, alpha)] with numbers in 0…1, got [1, 2, 0]"##
        )
        #expect(error(##"{"font": "DejaVu Sans", \##(cluster)}"##) == "bad.json: categories: missing required field")
        #expect(
            error(##"{"font": "DejaVu Sans", \##(cluster), "categories": []}"##)
                == "bad.json: categories: expected a non-empty list of categories")
        #expect(
            error(
                ##"{"font": "DejaVu Sans", \##(cluster), "categories": [{"name": "a", "color": "#000"}, {"name": "b", "color": "#000"}, {"name": "a", "color": "#000"}]}"##
            )
                == ##"bad.json: categories[2].name: expected a name no other category has; categories[0] is named "a" too"##
        )
        #expect(
            error(##"{"font": 12, \##(cluster), "categories": [{"name": "a", "color": "#000"}]}"##)
                == "bad.json: font: expected a string, got 12")
        #expect(
            error(##"{"font": "DejaVu Sans", \##(cluster), "categories": [{"name": "a", "colour": "#000"}]}"##)
                == "bad.json: categories[0].colour: unknown field; expected one of: name, color, glyph, solidCluster, clusteringIdentifier, displayPriority"
        )
        #expect(
            error(
                ##"{"font": "DejaVu Sans", "cluster": {"buckets": [{"minimumCount": 2, "diameter": 40, "innerDiameter": 44, "fontSize": 20}]}, "categories": [{"name": "a", "color": "#000"}]}"##
            )
                == "bad.json: cluster.buckets[0].innerDiameter: expected a number ≥ 0 and smaller than diameter (40.0)")
        #expect(
            error(
                ##"{"font": "DejaVu Sans", "cluster": {"buckets": [{"minimumCount": 10, "diameter": 40, "innerDiameter": 24, "fontSize": 20}, {"minimumCount": 2, "diameter": 40, "innerDiameter": 24, "fontSize": 20}]}, "categories": [{"name": "a", "color": "#000"}]}"##
            )
                == "bad.json: cluster.buckets: expected a non-empty list of buckets with strictly ascending minimumCount"
        )
        #expect(
            error(
                ##"{"font": "DejaVu Sans", \##(cluster), "categories": [{"name": "a", "color": "#000", "displayPriority": "urgent"}]}"##
            )
                == ##"bad.json: categories[0].displayPriority: expected a number in 0…1000 or one of "required", "defaultHigh", "defaultLow", got "urgent""##
        )
        #expect(
            error(
                ##"{"font": "DejaVu Sans", \##(cluster), "categories": [{"name": "a", "color": "#000", "displayPriority": 1001}]}"##
            )
                == ##"bad.json: categories[0].displayPriority: expected a number in 0…1000 or one of "required", "defaultHigh", "defaultLow", got 1001"##
        )
        #expect(
            error(
                ##"{"font": "DejaVu Sans", \##(cluster), "categories": [{"name": "a", "color": "#000", "glyph": {"image": "tandm/Missing.png"}}]}"##
            )
                == "bad.json: categories[0].glyph.image: expected a readable PNG file, but \(stylesFolder.path)/tandm/Missing.png cannot be read"
        )
        #expect(
            error(
                ##"{"font": "DejaVu Sans", \##(cluster), "categories": [{"name": "a", "color": "#000", "glyph": {"image": "tandm/LICENSE.txt"}}]}"##
            )
                == "bad.json: categories[0].glyph.image: expected a PNG file, but \(stylesFolder.path)/tandm/LICENSE.txt is not one"
        )
        #expect(
            error(
                ##"{"font": "DejaVu Sans", \##(cluster), "categories": [{"name": "a", "color": "#000"}], "balloon": {"width": 30, "height": 20}}"##
            )
                == "bad.json: balloon.height: expected a height greater than width (30.0) and at most 1024")
    }

    @Test func invalidJSONNamesTheFile() throws {
        #expect(error(#"{"font": "#) == "bad.json: not valid JSON: line 1, column 10: unexpected end of the text")
        #expect(
            error("{\n  \"font\": \"DejaVu Sans\",\n}")
                == "bad.json: not valid JSON: line 3, column 1: expected a string key")
        #expect(
            error(#"{"name": "a", "name": "b"}"#)
                == #"bad.json: not valid JSON: line 1, column 22: the key "name" appears twice in this object"#)
    }

    /// Foundation's decoder called these "not valid JSON" with no field, and listed no choices for a bad mode.
    @Test func numbersAndNamesOutOfTheirRangeNameTheField() {
        func bucket(_ count: String) -> String {
            ##"{"font": "DejaVu Sans", "cluster": {"buckets": [{"minimumCount": \##(count), "diameter": 40, "innerDiameter": 24, "fontSize": 20}]}, "categories": [{"name": "a", "color": "#000"}]}"##
        }
        #expect(error(bucket("2.5")) == "bad.json: cluster.buckets[0].minimumCount: expected a whole number, got 2.5")
        #expect(
            error(bucket("2e19"))
                == "bad.json: cluster.buckets[0].minimumCount: expected a whole number from -9223372036854775808 to 9223372036854775807, got 20000000000000000000"
        )
        #expect(
            error(bucket(#""2""#)) == "bad.json: cluster.buckets[0].minimumCount: expected a whole number, got a string"
        )
        #expect(error(bucket("1e400")) == "bad.json: not valid JSON: line 1, column 66: the number 1e400 is too large")
        #expect(
            error(
                ##"{"font": "DejaVu Sans", "cluster": {"collisionMode": "square", "buckets": [{"minimumCount": 2, "diameter": 40, "innerDiameter": 24, "fontSize": 20}]}, "categories": [{"name": "a", "color": "#000"}]}"##
            )
                == #"bad.json: cluster.collisionMode: expected one of "rectangle", "circle", "none", got "square""#)
    }

    /// A glyph is drawn at most 512 points wide; a 16384² image would cost 1 GB to decode, so its header is checked
    /// first.
    @Test func aGlyphImageLargerThanAGlyphCanUseIsRefusedUndecoded() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "declutter-glyph-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A signature and a header declaring 16384 × 16384 pixels; no pixel data follows.
        var header: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        header += [0, 0, 0x40, 0, 0, 0, 0x40, 0, 8, 6, 0, 0, 0, 0, 0, 0, 0]
        let glyph = folder.appendingPathComponent("huge.png")
        try Data(header).write(to: glyph)
        #expect(
            error(
                ##"{"font": "DejaVu Sans", \##(cluster), "categories": [{"name": "a", "color": "#000", "glyph": {"image": "\##(glyph.path)"}}]}"##
            )
                == "bad.json: categories[0].glyph.image: expected a glyph image of at most 2048×2048 px, but \(glyph.path) is 16384×16384 px"
        )
    }

    @Test func missingFileNamesIt() {
        #expect(
            throws: StyleError(
                file: "/nonexistent/style.json", path: "", message: "cannot read the style file (no such file)")
        ) {
            try MarkerStyle.load(contentsOf: URL(fileURLWithPath: "/nonexistent/style.json"))
        }
    }
}
