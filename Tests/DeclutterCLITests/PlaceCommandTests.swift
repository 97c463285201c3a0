import DeclutterClustering
import DeclutterCommandLine
import DeclutterMap
import DeclutterMapContent
import DeclutterPlacement
import DeclutterRender
import DeclutterStyle
import Foundation
import Testing

@Suite struct PlaceCommandTests {
    @Test func printsVisibleHiddenAndClusters() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = """
            {"viewport": {"width": 400, "height": 400},
             "clusterView": {"width": 40, "height": 40, "collisionMode": "circle", "centerOffset": [0, -10]},
             "annotations": [
               {"id": "a", "x": 100, "y": 100, "width": 30, "height": 40, "centerOffset": [0, -20], "displayPriority": "defaultLow", "clusteringIdentifier": "bike"},
               {"id": "b", "x": 110, "y": 104, "width": 30, "height": 40, "centerOffset": [0, -20], "displayPriority": "defaultLow", "clusteringIdentifier": "bike"},
               {"id": 7, "x": 300, "y": 300, "width": 40, "height": 40, "collisionMode": "circle", "displayPriority": 600},
               {"id": "c", "x": 310, "y": 300, "width": 40, "height": 40, "displayPriority": "defaultLow", "clusteringIdentifier": null}
             ]}
            """
        try Data(scene.utf8).write(to: folder.appendingPathComponent("scene.json"))
        let result = try CommandResult.run(["place", "--input", "scene.json"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout
                == #"{"visible":["7"],"hidden":["c"],"clusters":[{"members":["a","b"],"x":105,"y":102,"visible":true,"clusteringIdentifier":"bike"}]}"#
                + "\n")
        // The same scene from standard input and through a pipe given by name, as the points' readers take them.
        let piped = try CommandResult.run(["place", "--input", "-"], in: folder, stdin: Data(scene.utf8))
        #expect(piped.status == 0 && piped.stdout == result.stdout, "\(piped.stderr)")
        let named = try CommandResult.run(
            ["-c", "cat scene.json | \"$0\" place --input /dev/stdin", declutterExecutable.path], in: folder,
            executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(named.status == 0 && named.stdout == result.stdout, "\(named.stderr)")
    }

    @Test(arguments: [
        (
            #"{"viewport": {"width": 400, "height": 400}, "annotations": [{"id": "a", "x": 1, "y": null, "width": 4, "height": 4}]}"#,
            "scene.json: annotations[0].y: expected a number, got null"
        ),
        (#"{"viewport": {"width": 400}, "annotations": []}"#, "scene.json: viewport.height: missing required field"),
        (
            #"{"viewport": {"width": 400, "height": 400}, "annotations": [{"id": "a", "x": 1, "y": 1, "width": 4, "height": 4, "priority": 3}]}"#,
            "scene.json: annotations[0].priority: unknown field"
        ),
        // Found by fuzzing: an offset this large overflowed the collision grid's cell numbers.
        (
            #"{"viewport": {"width": 400, "height": 400}, "annotations": [{"id": "a", "x": 1, "y": 1, "width": 4, "height": 4, "centerOffset": [0, -2e56]}]}"#,
            "scene.json: annotations[0].centerOffset: expected [dx, dy], each within ±1000000000"
        ),
        (
            #"{"viewport": {"width": 400, "height": 400}, "annotations": [{"id": "a", "x": 2e9, "y": 1, "width": 4, "height": 4}]}"#,
            "scene.json: annotations[0].x: expected a number within ±1000000000"
        ),
        ("{", "scene.json: not valid JSON: line 1, column 2: expected a string key"),
        (
            #"{"viewport": {"width": 400, "height": 400}, "annotations": [],}"#,
            "scene.json: not valid JSON: line 1, column 63: expected a string key"
        ),
        (
            #"{"viewport": {"width": 400, "height": 400}, "annotations": [{"id": "a", "x": 1, "y": 1, "width": 4, "height": 4, "collisionMode": "x"}]}"#,
            #"scene.json: annotations[0].collisionMode: expected one of "rectangle", "circle", "none", got "x""#
        ),
    ])
    func malformedScenesNameThePath(json: String, message: String) throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(json.utf8).write(to: folder.appendingPathComponent("scene.json"))
        let result = try CommandResult.run(["place", "--input", "scene.json"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    /// A folder is said to be one, as the other commands say it, not in Foundation's words.
    @Test func aFolderIsNotAScene() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("scenes"), withIntermediateDirectories: true)
        let result = try CommandResult.run(["place", "--input", "scenes"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr == "Error: scenes: is a folder; expected a scene file (.json)\n")
    }

    @Test func scenesBeyondTheLimitsAreRefusedNamingTheFieldAndTheLimit() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // One annotation over the limit; the count is refused before any annotation is read, so these need not be any.
        let tooMany =
            #"{"viewport": {"width": 400, "height": 400}, "annotations": ["#
            + Array(repeating: "0", count: PlacementScene.maximumAnnotations + 1).joined(separator: ",") + "]}"
        let tooWide = #"{"viewport": {"width": 1000001, "height": 400}, "annotations": []}"#
        let tooTall = #"{"viewport": {"width": 400, "height": 2e6}, "annotations": []}"#
        for (json, message) in [
            (tooMany, "scene.json: annotations: expected at most 1000000 annotations, got 1000001"),
            (tooWide, "scene.json: viewport.width: expected a width in points, > 0 and at most 1000000"),
            (tooTall, "scene.json: viewport.height: expected a height in points, > 0 and at most 1000000"),
        ] {
            try Data(json.utf8).write(to: folder.appendingPathComponent("scene.json"))
            let result = try CommandResult.run(["place", "--input", "scene.json"], in: folder)
            #expect(result.status == 2)
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }
}
