/// Removes the zero-width corridors a ring cut to a box carries, splitting it into the rings they joined.
///
/// Sutherland–Hodgman keeps a cut ring whole: where the ring leaves the box and comes back, it runs along the box's
/// edge and back again, enclosing no area. The basemap's cells were cut so, along the cell edges, and a tile's cut
/// adds more along its buffer. Filled, a corridor adds nothing; but MapLibre outlines each fill's edges to smooth
/// them, and a corridor along a cell edge, which is a tile edge, would be drawn as a hairline of land across the sea.
///
/// The ring's edges along each horizontal or vertical line are split where any of them ends, so that a stretch run
/// both ways becomes two opposite copies of one segment; those cancel, and what remains is chained into closed
/// rings again, each following the boundary the corridors joined.
enum RingBridges {
    typealias Point = (x: Int32, y: Int32)

    /// The rings `ring` (closed, its first point not repeated) is made of once its corridors are gone, in tile units;
    /// the ring itself, as one, when it has none.
    static func split(_ ring: [Point]) -> [[Point]] {
        let count = ring.count
        guard count >= 4 else { return [ring] }
        // Edges by the horizontal or vertical line they lie on; others as they are.
        struct Line: Hashable {
            var vertical: Bool
            var at: Int32
        }
        var onLines: [Line: [(from: Int32, to: Int32)]] = [:]
        // The lines in the order the ring first runs along them: the rings come out in an order of the ring's own,
        // not in the dictionary's, which differs from process to process (and with it a tile's bytes).
        var lines: [Line] = []
        var others: [(Point, Point)] = []
        func add(_ line: Line, _ span: (from: Int32, to: Int32)) {
            if onLines[line] == nil { lines.append(line) }
            onLines[line, default: []].append(span)
        }
        for index in 0..<count {
            let a = ring[index], b = ring[(index + 1) % count]
            if a.x == b.x {
                add(Line(vertical: true, at: a.x), (a.y, b.y))
            } else if a.y == b.y {
                add(Line(vertical: false, at: a.y), (a.x, b.x))
            } else {
                others.append((a, b))
            }
        }
        // Only a line run both ways can hold a corridor.
        guard
            onLines.values.contains(where: { edges in
                edges.count > 1 && edges.contains { $0.from < $0.to } && edges.contains { $0.from > $0.to }
            })
        else { return [ring] }
        var edges = others
        for line in lines {
            let spans = onLines[line] ?? []
            func point(_ value: Int32) -> Point { line.vertical ? (line.at, value) : (value, line.at) }
            guard spans.count > 1 else {
                edges += spans.map { (point($0.from), point($0.to)) }
                continue
            }
            // Net runs over each piece between consecutive ends: +1 forward, −1 back; zero cancels.
            let stops = Array(Set(spans.flatMap { [$0.from, $0.to] })).sorted()
            var net = [Int](repeating: 0, count: stops.count - 1)
            var place: [Int32: Int] = [:]
            for (index, stop) in stops.enumerated() { place[stop] = index }
            for span in spans {
                guard let from = place[span.from], let to = place[span.to] else { continue }
                if from < to {
                    for piece in from..<to { net[piece] += 1 }
                } else {
                    for piece in to..<from { net[piece] -= 1 }
                }
            }
            for (piece, runs) in net.enumerated() where runs != 0 {
                let low = point(stops[piece]), high = point(stops[piece + 1])
                for _ in 0..<abs(runs) { edges.append(runs > 0 ? (low, high) : (high, low)) }
            }
        }
        // Chains the edges into closed rings: from each unused edge, on along an unused edge from where it ends.
        struct Key: Hashable {
            var x: Int32
            var y: Int32
        }
        var leaving: [Key: [Int]] = [:]
        for (index, edge) in edges.enumerated() { leaving[Key(x: edge.0.x, y: edge.0.y), default: []].append(index) }
        var used = [Bool](repeating: false, count: edges.count)
        var rings: [[Point]] = []
        for first in edges.indices where !used[first] {
            var chain: [Point] = []
            var index = first
            while !used[index] {
                used[index] = true
                chain.append(edges[index].0)
                let end = Key(x: edges[index].1.x, y: edges[index].1.y)
                guard let next = leaving[end]?.first(where: { !used[$0] }) else { break }
                index = next
            }
            let simplified = removingStraightPoints(chain)
            if simplified.count >= 3 { rings.append(simplified) }
        }
        return rings
    }

    /// The ring without the points that lie on a straight line between their neighbours, going on the same way.
    static func removingStraightPoints(_ ring: [Point]) -> [Point] {
        var result = ring
        var changed = true
        while changed, result.count >= 3 {
            changed = false
            var kept: [Point] = []
            kept.reserveCapacity(result.count)
            for index in result.indices {
                let previous = kept.last ?? result[(index + result.count - 1) % result.count]
                let point = result[index], next = result[(index + 1) % result.count]
                let ax = Int64(point.x) - Int64(previous.x), ay = Int64(point.y) - Int64(previous.y)
                let bx = Int64(next.x) - Int64(point.x), by = Int64(next.y) - Int64(point.y)
                if ax * by - ay * bx == 0, ax * bx + ay * by >= 0 {
                    changed = true
                    continue
                }
                kept.append(point)
            }
            result = kept
        }
        return result
    }
}
