import Foundation

/// Points binned in a uniform grid over the unit square (world units), stored cell by cell in flat arrays, so
/// that the points near a position are a few contiguous runs.
///
/// Points are binned by their float32 positions, as supercluster's k-d trees keep them, and keep their own
/// positions for searching from.
struct PointGrid: Sendable {
    /// Cells along each side.
    let side: Int
    /// Where each cell's points start in the flat arrays (row by row, `side * side + 1` entries).
    let starts: [Int32]
    /// The points, cell by cell: positions and indices in the arrays the grid was built from.
    let entries: [Entry]

    /// A binned point, binned by its float32 position.
    struct Entry: Sendable {
        var x: Double
        var y: Double
        var id: Int32
    }

    /// Bins points given as parallel arrays; `members`, if given, are the indices to bin (default: all).
    ///
    /// Two counting sorts: by row into bands, then each band by column in place. Scattering a million random
    /// points straight into a million cells misses the cache at every write; the bands have few enough write
    /// positions to stay in cache, and a band fits in cache for its own sort.
    init(xs sourceX: [Double], ys sourceY: [Double], members: [Int32]? = nil, side: Int) {
        let side = max(1, side)
        self.side = side
        let count = members?.count ?? sourceX.count
        func cell(_ value: Float) -> Int { Self.cell(Double(value), side: side) }
        var entries: [Entry] = []
        let rowStarts = Self.scatter(xs: sourceX, ys: sourceY, members: members, into: side, entries: &entries) {
            cell(Float($0))
        }
        var starts = [Int32](repeating: 0, count: side * side + 1)
        var filled = [Int](repeating: 0, count: side)
        var band: [Entry] = []
        for row in 0..<side {
            let range = rowStarts[row]..<rowStarts[row + 1]
            band.removeAll(keepingCapacity: true)
            band.append(contentsOf: entries[range])
            for column in 0..<side { filled[column] = 0 }
            for entry in band { filled[cell(Float(entry.x))] += 1 }
            var next = range.lowerBound
            for column in 0..<side {
                starts[row * side + column] = Int32(next)
                let cellCount = filled[column]
                filled[column] = next
                next += cellCount
            }
            for entry in band {
                let column = cell(Float(entry.x))
                entries[filled[column]] = entry
                filled[column] += 1
            }
        }
        starts[side * side] = Int32(count)
        self.starts = starts
        self.entries = entries
    }

    /// Points scattered into `entries` by band (`band(y)`, `bands` of them) with a counting sort, in their order
    /// within a band; returns where each band starts (`bands + 1` entries).
    static func scatter(
        xs: [Double], ys: [Double], members: [Int32]?, into bands: Int, entries: inout [Entry],
        band: (Double) -> Int
    ) -> [Int] {
        let count = members?.count ?? xs.count
        var starts = [Int](repeating: 0, count: bands + 1)
        let bandOf = [Int32](unsafeUninitializedCapacity: count) { buffer, initialized in
            for position in 0..<count {
                let index = members.map { Int($0[position]) } ?? position
                let which = band(ys[index])
                buffer[position] = Int32(which)
                starts[which + 1] += 1
            }
            initialized = count
        }
        for band in 0..<bands { starts[band + 1] += starts[band] }
        entries = [Entry](unsafeUninitializedCapacity: count) { buffer, initialized in
            var filled = starts
            for position in 0..<count {
                let index = members.map { Int($0[position]) } ?? position
                let which = Int(bandOf[position])
                buffer[filled[which]] = Entry(x: xs[index], y: ys[index], id: Int32(index))
                filled[which] += 1
            }
            initialized = count
        }
        return starts
    }

    /// How many points share a point's cell, on average over the points: about one when they are spread evenly.
    var crowding: Double {
        guard !entries.isEmpty else { return 0 }
        var shared = 0.0
        for cell in 0..<side * side {
            let count = Double(starts[cell + 1] - starts[cell])
            shared += count * count
        }
        return shared / Double(entries.count)
    }

    /// The cells along one axis that points at `low…high` can lie in. Positions outside the square are binned in
    /// the edge cells.
    ///
    /// No margin is needed: a position's cell is monotone in it (a correctly rounded product, then floor and
    /// clamp), so a float32 position at or above `low` (even one `low` was rounded up to) is in a cell at or
    /// above `low`'s.
    @inline(__always)
    func cells(_ low: Double, _ high: Double) -> ClosedRange<Int> {
        let first = Self.cell(low, side: side)
        return first...max(first, Self.cell(high, side: side))
    }

    /// The cell along one axis of a position, edge cells for positions outside the square.
    @inline(__always)
    static func cell(_ value: Double, side: Int) -> Int {
        Int(max(0, min(Double(side - 1), (value * Double(side)).rounded(.down))))
    }
}
