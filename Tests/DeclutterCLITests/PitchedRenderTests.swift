import DeclutterCore
import Foundation
import Testing

/// `declutter render --pitch`: pitched maps.
@Suite struct PitchedRenderTests {
    /// The layout file a run wrote, as JSON.
    func layout(_ folder: URL, _ name: String = "layout.json") throws -> JSONValue {
        try JSONParser.parse(Data(contentsOf: folder.appendingPathComponent(name)))
    }

    @Test func aPitchedMapIsFittedFlatThenZoomedOutToStayWhole() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (pitch, name) in [("0", "flat"), ("45", "pitched")] {
            let result = try CommandResult.run(["render", "--input", tandmPlist, "--size", "400x400", "--pitch", pitch,
                                                "--layout", "\(name).json", "--output", "\(name).png"], in: folder)
            #expect(result.status == 0, "\(result.stderr)")
        }
        let flat = try layout(folder, "flat.json").object, pitched = try layout(folder, "pitched.json").object
        #expect(flat?["pitch"] == nil && pitched?["pitch"]?.number == 45)
        // The camera stands 600 points from the centre; the flat map's bottom row grows by 600 / (600 − 200·sin 45°)
        // = 1.30838, so the pitched map is log2(1.30838) = 0.388 zooms further out.
        let drop = (flat?["zoom"]?.number ?? 0) - (pitched?["zoom"]?.number ?? 0)
        #expect(abs(drop - 0.388) < 0.002)
        // Every point is in one annotation, and each balloon stands with its tip on its projected point.
        let camera = try MapCamera(center: Coordinate(longitude: pitched?["center"]?.array?[0].number ?? 0, latitude: pitched?["center"]?.array?[1].number ?? 0),
                                   zoom: pitched?["zoom"]?.number ?? 0, pitch: 45, width: 400, height: 400)
        let annotations = (pitched?["annotations"]?.array ?? []).compactMap(\.object)
        let members: [Double] = annotations.flatMap { $0["members"]?.array ?? [] }.compactMap(\.number).sorted()
        #expect(members == (0..<65).map(Double.init))
        var markers = 0
        for annotation in annotations where annotation["kind"]?.string == "marker" && annotation["visible"] == .bool(true) {
            let frame = (annotation["frame"]?.array ?? []).compactMap(\.number), coordinate = (annotation["coordinate"]?.array ?? []).compactMap(\.number)
            let tip = camera.point(for: Coordinate(longitude: coordinate[0], latitude: coordinate[1]))
            // The layout rounds the camera to 3 decimals and coordinates to 7: within a hundredth of a point.
            #expect(abs(frame[0] + 15 - tip.x) < 0.05 && abs(frame[1] + 40 - tip.y) < 0.05)
            markers += 1
        }
        #expect(markers > 0)
    }

    @Test func aPitchOutOfRangeIsNamed() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for value in ["61", "-1", "nan"] {
            let result = try CommandResult.run(["render", "--input", tandmPlist, "--pitch", value, "--output", "map.png"], in: folder)
            #expect(result.status == 2)
            #expect(result.stderr.contains("--pitch must be in 0…60 degrees, got \(value)"), "\(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("map.png").path))
    }
}
