import DeclutterGeometry
import Foundation

/// A view's copies: which of them reach into the map, and which stands nearest its centre.
extension WorldRepeat {
    /// Whether copy k of a view reaches into the map (always, without a map size).
    package func reachesMap(_ view: PlacementView, copy: Int) -> Bool {
        guard let mapSize else { return true }
        let shift = offset(copy, x: view.x, y: view.y), x = view.x + view.offsetX + shift.x, y = view.y + view.offsetY + shift.y
        return x - view.width / 2 < mapSize.width && x + view.width / 2 > 0 && y - view.height / 2 < mapSize.height && y + view.height / 2 > 0
    }

    /// The copies of a view in the region that reach into the map.
    package func copiesOnMap(_ view: PlacementView) -> [Int] {
        guard let copies = copies(x: view.x, y: view.y) else { return [] }
        return copies.filter { reachesMap(view, copy: $0) }
    }

    /// Of some copies of a view, the one whose view centre is nearest the map's centre (the region's without a map
    /// size); the first of equals.
    package func nearestCopy(of view: PlacementView, among copies: [Int]) -> Int {
        let centerX = mapSize.map { $0.width / 2 } ?? (minX + maxX) / 2, centerY = mapSize.map { $0.height / 2 } ?? (minY + maxY) / 2
        func distance(_ copy: Int) -> Double {
            let shift = offset(copy, x: view.x, y: view.y)
            return hypot(view.x + view.offsetX + shift.x - centerX, view.y + view.offsetY + shift.y - centerY)
        }
        return copies.min { distance($0) < distance($1) } ?? 0
    }
}
