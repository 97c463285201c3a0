import DeclutterMap
import DeclutterMapContent
import DeclutterPlacement
import DeclutterRender
import DeclutterStyle
import Foundation

/// The one line `render` and `demo` print for a map they wrote.
enum MapSummary {
    /// `wrote PATH: W×H pt (W×H px), zoom Z, N of M points on the map, in K views shown (C clusters, B markers)`.
    static func line(_ map: DrawnMap, path: String, scale: Double, format: OutputFormat) -> String {
        let camera = map.camera
        let pixels =
            format == .png
            ? " (\(Int((camera.width * scale).rounded(.up)))×\(Int((camera.height * scale).rounded(.up))) px)" : ""
        let shown = map.annotations.filter(\.visible)
        let points = map.annotations.reduce(0) { $0 + $1.count }
        func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        // Every input point is a member of some annotation, those off the map too; say how many the map shows.
        let inView = map.content.pointsInView
        let onMap =
            inView < points
            ? "\(inView) of \(counted(points, "point")) on the map, in" : "\(counted(points, "point")) in"
        return "wrote \(path): \(Int(camera.width))×\(Int(camera.height)) pt\(pixels), zoom "
            + String(format: "%.2f", camera.zoom) + ", \(onMap) \(counted(shown.count, "view")) shown "
            + "(\(counted(shown.filter { $0.kind == .cluster }.count, "cluster")), \(counted(shown.filter { $0.kind == .marker }.count, "marker")))"
    }
}
