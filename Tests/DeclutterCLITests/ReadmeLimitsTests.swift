import DeclutterServer
import DeclutterStaticAPI
import DeclutterTesting
import Foundation
import Testing

@testable import DeclutterCLI
@testable import DeclutterClustering
@testable import DeclutterCommandLine
@testable import DeclutterGeometry
@testable import DeclutterMap
@testable import DeclutterMapContent
@testable import DeclutterPNG
@testable import DeclutterPlacement
@testable import DeclutterRender
@testable import DeclutterStyle
@testable import DeclutterSupport
@testable import DeclutterTileSources

/// The README's Limits table against the constants that enforce each bound, so that a changed limit cannot leave
/// the documentation behind.
@Suite struct ReadmeLimitsTests {
    /// The table's rows: the first cell → the second.
    func rows() throws -> [String: String] {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(
            readme.components(separatedBy: "\n## Limits\n").dropFirst().first?.components(separatedBy: "\n## ").first)
        var rows: [String: String] = [:]
        for line in section.split(separator: "\n")
        where line.hasPrefix("| ") && !line.hasPrefix("| What") && !line.hasPrefix("|---") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            if cells.count >= 2 { rows[cells[0]] = cells[1] }
        }
        return rows
    }

    /// 16384 as the README writes it: 16,384.
    func grouped(_ value: Int) -> String {
        String(value).reversed().enumerated().reduce(into: "") { text, pair in
            if pair.offset > 0 && pair.offset % 3 == 0 { text.insert(",", at: text.startIndex) }
            text.insert(pair.element, at: text.startIndex)
        }
    }

    @Test func everyBoundIsTheOneTheCodeEnforces() throws {
        let rows = try rows()
        let expected: [(row: String, text: String)] = [
            ("Map size", "\(grouped(Surface.maximumSide)) px a side"),
            ("Zoom, `--max-zoom`", "\(Int(MapCamera.zoomRange.lowerBound))…\(Int(MapCamera.zoomRange.upperBound))"),
            (
                "Pitch, `--pitch`",
                "\(Int(Perspective.pitchRange.lowerBound))…\(Int(Perspective.pitchRange.upperBound)) degrees"
            ),
            (
                "`--frames`",
                "\(CameraGesture.Step.maximumCount) gesture steps (\(CameraGesture.Step.maximumCount + 1) frames); the strip \(grouped(Surface.maximumSide)) px wide"
            ),
            ("Tiles per map", "256 (`--max-tiles`, 1…4096)"),
            (
                "Tile request",
                "answers over \(try HTTPTileSource(template: "http://127.0.0.1/{z}/{x}/{y}.png", cacheDirectory: nil).maximumTileBytes >> 20) MB"
            ),
            (
                "Tile request",
                "\(try HTTPTileSource(template: "http://127.0.0.1/{z}/{x}/{y}.png", cacheDirectory: nil).maximumMapBytes >> 20) MB of tiles held per map"
            ),
            ("Tile fetching per map", "\(Int(HTTPTileSource.defaultDeadline)) s in all"),
            (
                "`Retry-After` (429, 503)",
                "up to \(Int(try HTTPTileSource(template: "http://127.0.0.1/{z}/{x}/{y}.png", cacheDirectory: nil).maximumRetryAfter)) s"
            ),
            (
                "Tile images",
                "\(grouped(TilePainter.maximumTileSide)) px a side; decoded \(TilePainter.tilesDecodedAtOnce) at a time"
            ),
            (
                "PNG files read",
                "\(grouped(PNGDecoder.maximumSide)) px a side and \(grouped(Int(Double(PNGDecoder.maximumPixels).squareRoot())))² pixels"
            ),
            ("PNG files read", "1/\(grouped(PNGDecoder.File.maximumInflation))"),
            ("`diff` images", "\(grouped(Int(Double(DiffCommand.defaultPixelLimit).squareRoot())))² pixels"),
            ("Glyph images in a style", "\(grouped(MarkerStyle.maximumGlyphImageSide)) px a side"),
            ("JSON nesting", "\(JSONParser.maximumDepth) levels"),
            (
                "Placement scenes",
                "\(grouped(PlacementScene.maximumAnnotations)) annotations; viewports up to \(grouped(Int(PlacementScene.maximumViewportSide))) points"
            ),
            ("Placement scenes", "within ±\(grouped(Int(PlacementScene.maximumCoordinate))) points"),
            ("Sprite sheet", "\(grouped(SpritePlan.maximumIcons)) icons"),
            ("Cluster icon counts", "\(grouped(CategoryCounts.maximumCount)) members"),
            ("`--circle` radius", "\(grouped(Int(CircleArgument.maximumRadius / 1000))) km"),
            ("Tilesets", "\(grouped(TilesCommand.maximumPoints)) points"),
            ("`declutter serve` requests", "bodies \(ServerLimits().maximumBodyBytes >> 20) MiB"),
            ("`declutter serve` requests", "\(grouped(ServerLimits().staticMap.maximumWidth)) points a side"),
            ("`declutter serve` requests", "\(ServerLimits().maximumTiles) basemap tiles"),
            ("`declutter serve` requests", "\(MapDrawing.maximumAddedCategories) kinds of marker"),
            ("`declutter serve` requests", "\(Int(ServerLimits().renderSeconds)) s a map"),
            ("`declutter serve` requests", "\(RenderPool.queuedPerWorker) maps queued a thread"),
            ("`declutter serve` requests", "\(ServerLimits().fetchingMaps) maps fetching tiles"),
            ("`declutter serve` requests", "a wait of \(ServerLimits().admissionSeconds.messageText) s for a place"),
            (
                "`declutter serve` connections",
                "the descriptor limit less \(ServerLimits.reservedDescriptors), at most 10,000"
            ),
            ("`declutter serve` connections", "\(ServerLimits().headerSeconds.messageText) s for a head"),
            ("`declutter serve` connections", "\(ServerLimits().bodySeconds.messageText) s for a body"),
            ("`declutter serve` connections", "\(ServerLimits().idleSeconds.messageText) s idle between requests"),
            (
                "Static-map URLs (`StaticMapRequest`)",
                "\(grouped(StaticMapLimits().maximumURLBytes)) bytes; \(grouped(StaticMapLimits().maximumWidth)) px a side"
            ),
            (
                "Static-map URLs (`StaticMapRequest`)",
                "\(StaticMapLimits().maximumOverlays) overlays; \(grouped(StaticMapLimits().maximumPoints)) points"
            ),
            (
                "Static-map URLs (`StaticMapRequest`)",
                "\(grouped(StaticMapLimits().maximumPathVertices)) path vertices; GeoJSON nested \(StaticMapLimits().maximumGeoJSONNesting) levels"
            ),
            (
                "Static-map URLs (`StaticMapRequest`)",
                "\(grouped(StaticMapLimits().maximumOverlayCrossings)) crossings of an overlay's lines"
            ),
        ]
        for (row, text) in expected {
            let cell = try #require(rows[row], "no row \(row) in the README's Limits table")
            #expect(cell.contains(text), "\(row): the README says \(cell); the code's bound is \(text)")
        }
    }
}
