import DeclutterCommandLine
import DeclutterGeometry
import DeclutterMap
import DeclutterMapContent
import DeclutterPlacement
import DeclutterRender
import DeclutterServer
import DeclutterStaticAPI
import DeclutterStyle
import DeclutterSupport
import Foundation
import Testing

/// `declutter render --pitch` and `--frames`: pitched maps, and the strip of maps a gesture makes.
@Suite struct PitchedRenderTests {
    /// The layout file a run wrote, as JSON.
    func layout(_ folder: URL, _ name: String = "layout.json") throws -> JSONValue {
        try JSONParser.parse(Data(contentsOf: folder.appendingPathComponent(name)))
    }

    @Test func aPitchedMapIsFittedAsTheCameraShowsIt() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (pitch, name) in [("0", "flat"), ("45", "pitched")] {
            let result = try CommandResult.run(
                [
                    "render", "--input", tandmPlist, "--size", "400x400", "--pitch", pitch,
                    "--layout", "\(name).json", "--output", "\(name).png",
                ], in: folder)
            #expect(result.status == 0, "\(result.stderr)")
        }
        let flat = try layout(folder, "flat.json").object, pitched = try layout(folder, "pitched.json").object
        #expect(flat?["pitch"] == nil && pitched?["pitch"]?.number == 45)
        // The sample's region is fitted as the tilted camera shows it: its far edge shrinks, so the map comes 0.264
        // zooms closer than the flat one (zoomed out by the bottom row's enlargement, 600 / (600 − 200·sin 45°), it
        // would have been 0.388 further out).
        let closer = (pitched?["zoom"]?.number ?? 0) - (flat?["zoom"]?.number ?? 0)
        #expect(abs(closer - 0.264) < 0.002)
        // Every point is in one annotation, and each balloon stands with its tip on its projected point.
        let camera = try MapCamera(
            center: Coordinate(
                longitude: pitched?["center"]?.array?[0].number ?? 0,
                latitude: pitched?["center"]?.array?[1].number ?? 0),
            zoom: pitched?["zoom"]?.number ?? 0, pitch: 45, width: 400, height: 400)
        let annotations = (pitched?["annotations"]?.array ?? []).compactMap(\.object)
        let members: [Double] = annotations.flatMap { $0["members"]?.array ?? [] }.compactMap(\.number).sorted()
        #expect(members == (0..<65).map(Double.init))
        var markers = 0
        for annotation in annotations
        where annotation["kind"]?.string == "marker" && annotation["visible"] == .bool(true) {
            let frame = (annotation["frame"]?.array ?? []).compactMap(\.number),
                coordinate = (annotation["coordinate"]?.array ?? []).compactMap(\.number)
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
            let result = try CommandResult.run(
                ["render", "--input", tandmPlist, "--pitch", value, "--output", "map.png"], in: folder)
            #expect(result.status == 2)
            #expect(result.stderr.contains("--pitch must be in 0…60 degrees, got \(value)"), "\(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("map.png").path))
    }

    @Test func framesDrawTheGestureAsAStrip() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A pinch out by 1.5, a quarter turn clockwise around the centre (200, 150) from its right, a pinch in by 0.5.
        let steps = #"[{"pinch": 1.5}, {"pan": {"location": [300, 150], "translation": [-100, 100]}}, {"pinch": 0.5}]"#
        try Data(steps.utf8).write(to: folder.appendingPathComponent("steps.json"))
        let result = try CommandResult.run(
            [
                "render", "--input", tandmPlist, "--size", "400x300", "--center", "37.8047,-122.4136", "--zoom", "15",
                "--frames", "steps.json", "--layout", "frames.json", "--output", "strip.png",
            ], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "wrote strip.png: 4 frames of 400×300 pt side by side (1600×300 px)\n")
        // The PNG's header gives its size: 4 frames of 400 px side by side.
        let png = try Data(contentsOf: folder.appendingPathComponent("strip.png"))
        let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect((width, height) == (1600, 300))
        // Each frame's camera, worked by hand: +0.5 zoom and 0.5 × 60 / 22 = 1.364° of pitch, then −90° of bearing
        // (360 − 90), then −0.5 zoom and back to no pitch.
        let frames = (try layout(folder, "frames.json").object?["frames"]?.array ?? []).compactMap(\.object)
        #expect(frames.count == 4)
        let cameras = frames.map { ($0["zoom"]?.number, $0["bearing"]?.number, $0["pitch"]?.number) }
        #expect(cameras.map(\.0) == [15, 15.5, 15.5, 15])
        #expect(cameras.map(\.1) == [nil, nil, 270, 270])
        #expect(cameras.map(\.2) == [nil, 1.364, 1.364, nil])
        for frame in frames {
            #expect((frame["annotations"]?.array ?? []).flatMap { $0.object?["members"]?.array ?? [] }.count == 65)
        }
    }

    @Test func badFramesAreNamedByStepAndField() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases = [
            (
                #"[{"pinch": 1.2}, {"pan": {"location": [1], "translation": [0, 0]}}]"#,
                #"--frames steps.json: step 2: "pan.location" must be two numbers [x, y] in map points"#
            ),
            (
                #"[{"pinch": 0}]"#,
                #"--frames steps.json: step 1: "pinch" must be a number above 0 (the scale since the last step; 1: no change), got 0"#
            ),
            (#"[{"zoom": 2}]"#, #"--frames steps.json: step 1: unknown step "zoom"; expected "pinch" or "pan""#),
            (
                #"[{"pan": {"location": [1, 2], "translation": [0, 0], "speed": 3}}]"#,
                #"--frames steps.json: step 1: unknown key "pan.speed"; expected location and translation"#
            ),
            (#"{"pinch": 2}"#, #"--frames steps.json: expected a JSON list of steps such as [{"pinch": 1.2}]"#),
            (
                "[" + Array(repeating: #"{"pinch": 1}"#, count: 65).joined(separator: ",") + "]",
                "--frames steps.json: 65 steps; expected 1…64"
            ),
        ]
        for (steps, message) in cases {
            try Data(steps.utf8).write(to: folder.appendingPathComponent("steps.json"))
            let result = try CommandResult.run(
                ["render", "--input", tandmPlist, "--frames", "steps.json", "--output", "strip.png"], in: folder)
            #expect(result.status == 2)
            #expect(result.stderr == "Error: \(message)\n", "\(result.stderr)")
        }
        // A strip wider than an image may be, and a format other than PNG, are refused before drawing.
        try Data(#"[{"pinch": 1.1}, {"pinch": 1.1}]"#.utf8).write(to: folder.appendingPathComponent("steps.json"))
        let wide = try CommandResult.run(
            [
                "render", "--input", tandmPlist, "--size", "3000x100", "--scale", "2", "--frames", "steps.json",
                "--output", "strip.png",
            ], in: folder)
        #expect(
            wide.status == 2
                && wide.stderr.contains(
                    "--frames: 3 frames of 6000 px make a strip 18000 px wide, over the limit of 16384 px")
        )
        let svg = try CommandResult.run(
            ["render", "--input", tandmPlist, "--frames", "steps.json", "--output", "strip.svg"], in: folder)
        #expect(
            svg.status == 2
                && svg.stderr.contains("--frames draws a PNG strip; --output must end in .png, got strip.svg"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("strip.png").path))
    }
}
