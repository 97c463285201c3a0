import ArgumentParser
import DeclutterMapContent
import DeclutterPlacement
import DeclutterRender
import Foundation

/// The `declutter` command: one subcommand per job.
package struct Declutter: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "declutter",
        abstract: "Cluster map points, place markers the way MapKit does, and draw them with Cairo and Pango.",
        version: "declutter \(version) (\(DrawingLibraries.versions))",
        subcommands: [
            RenderCommand.self, DemoCommand.self, MarkerCommand.self, SpritesCommand.self, TilesCommand.self,
            ServeCommand.self, ClusterCommand.self, PlaceCommand.self,
            DiffCommand.self, BenchForwarding.self,
        ])

    /// The release this binary was built from.
    package static let version = "0.5.0"

    package init() {}
}
