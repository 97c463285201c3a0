import ArgumentParser
import DeclutterClustering
import DeclutterCommandLine
import DeclutterInput
import DeclutterMap
import DeclutterMapContent
import DeclutterPlacement
import DeclutterRender
import DeclutterStyle
import DeclutterSupport
import Foundation

/// `declutter place`: decides which marker views show, by MapKit's collision, priority and clustering rules.
struct PlaceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "place",
        abstract: "Place marker views in screen space as MapKit does and print which show, hide or cluster.",
        discussion: """
            The scene, a JSON object:
              "viewport": {"width", "height"}
              "clusterView": {"width", "height", "collisionMode",
                              "centerOffset", "maximumSpread"}
              "annotations": [{"id", "x", "y", "width", "height",
                               "centerOffset", "collisionMode",
                               "displayPriority", "clusteringIdentifier"}]

            Examples (declutter demo --write-examples writes their input):
              declutter demo --write-examples Examples
              declutter place --input Examples/scene.json
            """)

    @Option(help: ArgumentHelp("The scene (JSON); - reads standard input.", valueName: "file"))
    var input: String

    func run() throws {
        let data: Data
        // Standard input is named as the other commands name it.
        let file = PointInputOptions.name(of: input)
        if FileSystem.item(atPath: input) == .folder {
            throw InputError(file: file, location: nil, message: "is a folder; expected a scene file (.json)")
        }
        do {
            // Standard input (`-`) and pipes (`--input <(…)`) as the points' readers take them.
            data = try PointReader.wholeStream(input, limit: 1 << 30) ?? Data(contentsOf: URL(fileURLWithPath: input))
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError(file: file, location: nil, message: "cannot read the file (\(FileSystem.reason(error)))")
        }
        let scene: PlacementScene
        do {
            scene = try PlacementScene.decode(from: data)
        } catch let syntax as JSONSyntaxError {
            throw InputError(file: file, location: nil, message: "not valid JSON: \(syntax)")
        } catch let error as DecodingError {
            throw InputError(file: file, decodingError: error)
        }
        let result = PlacementEngine.place(scene)
        let clusters = result.clusters.map { cluster in
            JSONValue.object(
                JSONObject([
                    ("members", .array(cluster.members.map(JSONValue.string))), ("x", .number(cluster.x)),
                    ("y", .number(cluster.y)), ("visible", .bool(cluster.visible)),
                    ("clusteringIdentifier", .string(cluster.clusteringIdentifier)),
                ]))
        }
        let output = JSONObject([
            ("visible", .array(result.visible.map(JSONValue.string))),
            ("hidden", .array(result.hidden.map(JSONValue.string))), ("clusters", .array(clusters)),
        ])
        try StandardOutput.print(JSONValue.object(output).jsonText)
    }
}
