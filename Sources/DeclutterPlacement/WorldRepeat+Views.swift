import DeclutterGeometry
import Foundation

/// A view's copies: which of them reach into the map, and which stands nearest its centre.
extension WorldRepeat {
    /// Whether copy k of a view reaches into the map (always, without a map size).
    package func reachesMap(_ view: PlacementView, copy: Int) -> Bool {
        guard let mapSize else { return true }
        let shift = offset(copy, x: view.x, y: view.y), x = view.x + view.offsetX + shift.x,
            y = view.y + view.offsetY + shift.y
        return x - view.width / 2 < mapSize.width && x + view.width / 2 > 0 && y - view.height / 2 < mapSize.height
            && y + view.height / 2 > 0
    }

    /// Whether copy k of a view lies wholly on the map (always, without a map size). On a north-up flat map, where
    /// copies differ only across, only the side edges count: a view the top edge cuts is cut alike at every copy, and
    /// its copy the side edge cuts too is not the whole one.
    package func isWhole(_ view: PlacementView, copy: Int) -> Bool {
        guard let mapSize else { return true }
        let shift = offset(copy, x: view.x, y: view.y), x = view.x + view.offsetX + shift.x,
            y = view.y + view.offsetY + shift.y
        let across = x - view.width / 2 >= 0 && x + view.width / 2 <= mapSize.width
        guard periodY != 0 || perspective != nil else { return across }
        return across && y - view.height / 2 >= 0 && y + view.height / 2 <= mapSize.height
    }

    /// The copies of a view in the region that reach into the map. Where some of them lie wholly on the map (a map
    /// wider than the world shows a view near its side edge again a world away), only those: a copy the map's edge
    /// would cut is left out, as the whole one shows the view. A view none of whose copies is whole keeps them, cut as
    /// a centred map cuts a view at its edge (and as a world map's placement needs them, to test both sides of its
    /// seam).
    package func copiesOnMap(_ view: PlacementView) -> [Int] {
        guard let copies = copies(x: view.x, y: view.y) else { return [] }
        let reaching = copies.filter { reachesMap(view, copy: $0) }
        guard reaching.count > 1 else { return reaching }
        let whole = reaching.filter { isWhole(view, copy: $0) }
        return whole.isEmpty ? reaching : whole
    }

    /// Of some copies of a view, the one whose view centre is nearest the map's centre (the region's without a map
    /// size); the first of equals.
    package func nearestCopy(of view: PlacementView, among copies: [Int]) -> Int {
        let centerX = mapSize.map { $0.width / 2 } ?? (minX + maxX) / 2,
            centerY = mapSize.map { $0.height / 2 } ?? (minY + maxY) / 2
        func distance(_ copy: Int) -> Double {
            let shift = offset(copy, x: view.x, y: view.y)
            return hypot(view.x + view.offsetX + shift.x - centerX, view.y + view.offsetY + shift.y - centerY)
        }
        return copies.min { distance($0) < distance($1) } ?? 0
    }
}
