/// Points kept in runs, so that the points near a position are a few runs of `entries`.
protocol CandidateRuns: Sendable {
    /// The points, run after run.
    var entries: [PointGrid.Entry] { get }
    /// Calls `body` with runs of `entries` that hold every point whose float32 position is within `reach` of
    /// (x, y) on both axes (and maybe others).
    func forEachRun(x: Double, y: Double, reach: Double, _ body: (Range<Int>) -> Void)
}

extension PointGrid: CandidateRuns {
    /// A row of cells is one run.
    @inline(__always)
    func forEachRun(x: Double, y: Double, reach: Double, _ body: (Range<Int>) -> Void) {
        let columns = cells(x - reach, x + reach)
        for row in cells(y - reach, y + reach) {
            body(Int(starts[row * side + columns.lowerBound])..<Int(starts[row * side + columns.upperBound + 1]))
        }
    }
}

extension PointBands: CandidateRuns {
    /// The part of a band within reach on x is one run.
    @inline(__always)
    func forEachRun(x: Double, y: Double, reach: Double, _ body: (Range<Int>) -> Void) {
        for band in bands(y - reach, y + reach) { body(run(band, x - reach, x + reach)) }
    }
}
