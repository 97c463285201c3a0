import DeclutterGeometry
import DeclutterSupport
import Foundation

/// Points in horizontal bands over their own vertical extent, each band sorted by x: the points near a position
/// are, band by band, one run found by binary search — however unevenly the points lie, where a grid of fixed
/// cells would put a whole city in one cell.
///
/// Points are banded and sorted by their float32 positions, as supercluster's k-d trees keep them, and keep their
/// own positions for searching from.
struct PointBands: Sendable {
    /// The top of the first band and the bands' height (world units).
    let top: Double
    let height: Double
    /// Where each band's points start in `entries` (`bands + 1` entries).
    let starts: [Int]
    /// The points, band by band, each band by float32 x.
    let entries: [PointGrid.Entry]

    /// Bands `members` of the parallel arrays (indices into them) in bands at least `minimumHeight` tall, and at
    /// most about four bands a point.
    init(xs: [Double], ys: [Double], members: [Int32], minimumHeight: Double) {
        var low = Double.infinity, high = -Double.infinity
        for index in members {
            let y = Double(Float(ys[Int(index)]))
            low = min(low, y)
            high = max(high, y)
        }
        if members.isEmpty { (low, high) = (0, 0) }
        let span = high - low
        let wanted = minimumHeight > 0 ? span / minimumHeight : Double(members.count)
        let bands = max(1, Int(min(Double(4 * members.count + 1), wanted.rounded(.down))))
        let height = bands > 1 ? span / Double(bands) : max(span, minimumHeight, .leastNormalMagnitude)
        (top, self.height) = (low, height)
        let count = members.count
        var entries: [PointGrid.Entry] = []
        let starts = PointGrid.scatter(xs: xs, ys: ys, members: members, into: bands, entries: &entries) {
            Self.band(Double(Float($0)), top: low, height: height, bands: bands)
        }
        // Each band sorted by float32 x, the bands shared out among the cores by their points.
        let chunks = max(1, min(Cores.available, count / 16_384))
        let bandStarts = starts
        entries.withUnsafeMutableBufferPointer { entries in
            // Each chunk sorts its own bands: disjoint parts of the buffer.
            _ = concurrentMap(chunks) { chunk in
                let starts = bandStarts
                func firstBand(from position: Int) -> Int {
                    var low = 0, high = bands
                    while low < high {
                        let middle = (low + high) / 2
                        if starts[middle] < position { low = middle + 1 } else { high = middle }
                    }
                    return low
                }
                for band in firstBand(from: count * chunk / chunks)..<firstBand(from: count * (chunk + 1) / chunks) {
                    var slice = UnsafeMutableBufferPointer(rebasing: entries[starts[band]..<starts[band + 1]])
                    slice.sortShortOrLong { Float($0.x) }
                }
            }
        }
        self.starts = starts
        self.entries = entries
    }

    var bands: Int { starts.count - 1 }

    @inline(__always)
    private static func band(_ y: Double, top: Double, height: Double, bands: Int) -> Int {
        Int(max(0, min(Double(bands - 1), ((y - top) / height).rounded(.down))))
    }

    /// The bands that points at `low…high` can lie in.
    ///
    /// No margin is needed: a position's band is monotone in it (a correctly rounded difference and quotient, then
    /// floor and clamp), so a float32 position at or above `low` is in a band at or above `low`'s.
    @inline(__always)
    func bands(_ low: Double, _ high: Double) -> ClosedRange<Int> {
        let first = Self.band(low, top: top, height: height, bands: bands)
        return first...max(first, Self.band(high, top: top, height: height, bands: bands))
    }

    /// The entries of a band whose float32 x lies in `low…high`.
    @inline(__always)
    func run(_ band: Int, _ low: Double, _ high: Double) -> Range<Int> {
        entries.withUnsafeBufferPointer { entries in
            func firstAbove(_ value: Double, orEqual: Bool) -> Int {
                var first = starts[band], last = starts[band + 1]
                while first < last {
                    let middle = (first + last) / 2
                    let key = Double(Float(entries[middle].x))
                    if orEqual ? key < value : key <= value { first = middle + 1 } else { last = middle }
                }
                return first
            }
            let start = firstAbove(low, orEqual: true)
            return start..<max(start, firstAbove(high, orEqual: false))
        }
    }
}
