import DeclutterBasemap
import Foundation
import Testing

/// The embedded basemap's decoded cells are kept within a byte budget: a server that pans the whole world decodes
/// every band's cells in turn, and kept them all before.
@Suite struct BasemapCellCacheTests {
    /// Every cell of every band as (band, column, row).
    static func everyCell(of file: BasemapFile) -> [(band: Int, column: Int, row: Int)] {
        file.bands.indices.flatMap { band in
            let level = file.bands[band].level
            return file.bands[band].cells.keys.sorted().map { key in
                (band, key & ((1 << level) - 1), key >> level)
            }
        }
    }

    /// A cell's shape: per layer, each path's point count and first point.
    static func shape(_ cell: BasemapCell?) -> [[String]] {
        (cell?.layers ?? []).map { paths in
            paths.map { "\($0.points.count) \($0.points.first.map { "\($0.x),\($0.y)" } ?? "-")" }
        }
    }

    @Test func cellsAreKeptWithinTheBudgetAndDecodeAlike() throws {
        let whole = try EmbeddedBasemap.openedAlone()
        let cells = Self.everyCell(of: whole)
        #expect(cells.count > 1000)
        for cell in cells { _ = try whole.cell(band: cell.band, column: cell.column, row: cell.row) }
        let all = whole.cellStatistics
        #expect(all.entries == cells.count && all.evictions == 0)
        // The process's file keeps less than the whole world, so its bound is one a long sweep reaches.
        #expect(all.bytes > EmbeddedBasemap.cellBudget)

        let data = try #require(try Self.embeddedData())
        let bounded = try BasemapFile(data, cellBudget: 4 << 20)
        for _ in 0..<2 {
            for cell in cells.shuffled() {
                let kept = try bounded.cell(band: cell.band, column: cell.column, row: cell.row)
                let reference = try whole.cell(band: cell.band, column: cell.column, row: cell.row)
                #expect(Self.shape(kept) == Self.shape(reference))
            }
        }
        let statistics = bounded.cellStatistics
        #expect(statistics.bytes <= 4 << 20 && statistics.bytes > 2 << 20)
        #expect(statistics.evictions > cells.count)
        // A cell asked for again at once is found, not decoded again.
        let first = try #require(cells.first)
        _ = try bounded.cell(band: first.band, column: first.column, row: first.row)
        let hits = bounded.cellStatistics.hits
        _ = try bounded.cell(band: first.band, column: first.column, row: first.row)
        #expect(bounded.cellStatistics.hits == hits + 1)
    }

    /// The embedded file's bytes, read back through a file opened alone.
    static func embeddedData() throws -> Data? {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(EmbeddedBasemap.path)
        return try Data(contentsOf: url)
    }
}
