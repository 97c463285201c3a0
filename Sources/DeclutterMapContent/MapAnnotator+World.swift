import DeclutterGeometry
import DeclutterPlacement
import Foundation

extension MapAnnotator {
    /// The camera zoom of a map drawn with 512-pixel tiles of `tileZoom`, as MapLibre draws vector tiles: a camera
    /// counts 256-point tiles, so tile zoom z is camera zoom z + 1.
    public static func cameraZoom(tileZoom: Int) -> Double { Double(tileZoom) + 1 }

    /// The highest tile zoom a world placement takes: its camera zoom must be one a camera accepts.
    public static let maximumTileZoom = Int(MapCamera.zoomRange.upperBound) - 1

    /// Places every point on a map of the whole world at `tileZoom`, as a static map of it would place them: the same
    /// groups, merges (by clustering identifier, at the count-weighted centroid, sized by the merged count, within the
    /// spread limit) and priorities, over the world at once, which wraps sideways. Each shown view stands at its
    /// members' centroid; each hidden view's points are counted by the shown view that kept it from showing (the
    /// first of the highest priority among those its shape overlaps).
    ///
    /// - Throws: ``AnnotationError`` for a zoom outside 0…``maximumTileZoom`` or below the zoom the index was built
    ///   down to (a tile zoom z needs `minimumZoom` at most z + 1).
    public func placeWorld(tileZoom: Int) throws -> WorldPlacement {
        guard (0...Self.maximumTileZoom).contains(tileZoom) else {
            throw AnnotationError("tile zoom \(tileZoom) is out of range; expected 0…\(Self.maximumTileZoom)")
        }
        let side = 512 * pow(2, Double(tileZoom))
        // Two points wider and taller than the world, so that no point lies on the map's edge, which counts as off it.
        let camera = try MapCamera(
            center: Coordinate(longitude: 0, latitude: 0), zoom: Self.cameraZoom(tileZoom: tileZoom),
            width: side + 2, height: side + 2)
        guard camera.zoom.rounded(.down) >= Double(index.options.minZoom) else {
            throw AnnotationError(
                "tile zoom \(tileZoom) needs the index built down to zoom \(tileZoom + 1); it starts at \(index.options.minZoom)"
            )
        }
        let groups = index.groups(atZoom: groupZoom(for: camera.zoom))
        let region = WorldRepeat(
            camera: camera, margin: style.maximumClusterSpread + max(style.largestClusterDiameter, style.balloon.height)
        )
        var candidates = self.candidates(groups, camera: camera, region: region, everyGroup: true)
        // Placement takes the views and hulls over, and frees them once merged; the rest reads only the members.
        let views = candidates.views, hulls = candidates.hulls
        (candidates.views, candidates.hulls) = ([], [])
        let placement = PlacementEngine.place(
            consume views, width: camera.width, height: camera.height, clusters: clusterRule, hulls: consume hulls,
            repeating: region)
        return worldPlacement(placement, candidates, tileZoom: tileZoom, side: side, region: region)
    }

    /// The shown views of a world placement with their members and the points they hide.
    private func worldPlacement(
        _ placement: Placement, _ candidates: Candidates, tileZoom: Int, side: Double,
        region: WorldRepeat
    ) -> WorldPlacement {
        var result = WorldPlacement(zoom: tileZoom, pointCount: points.count)
        // At most every view shows, with every point on the map: made that size at once rather than grown by doubling
        // (an over-estimate costs address space only).
        result.reserveCapacity(views: placement.views.count, members: candidates.members.count)
        /// The placement view each shown view came from.
        var placementOfShown: [Int] = []
        // Shown views are filed for the hidden ones to find their hider: only when placement hid any.
        let hides = placement.visible.contains(false)
        var grid = CollisionGrid(width: hides ? side + 2 : 1, height: hides ? side + 2 : 1, cellSize: 64)
        var gridOwners: [Int32] = []
        var members: [Int32] = []
        /// The points of placement view `view`, ascending.
        func membersOf(_ view: Int) -> [Int32] {
            members.removeAll(keepingCapacity: true)
            for part in placement.members(of: view).lazy.map(Int.init) {
                members.append(
                    contentsOf: candidates.members[
                        Int(candidates.memberStarts[part])..<Int(candidates.memberStarts[part + 1])])
            }
            if placement.isCluster(view) { members.sort() }
            return members
        }
        for (index, view) in placement.views.enumerated() where placement.visible[index] {
            let shown = Int32(result.count)
            placementOfShown.append(index)
            let viewMembers = membersOf(index)
            if viewMembers.count == 1 {
                // A single point stands exactly where it is.
                result.x.append(worldX[Int(viewMembers[0])])
                result.y.append(worldY[Int(viewMembers[0])])
            } else {
                let x = (view.x - 1) / side
                result.x.append(x - x.rounded(.down))
                result.y.append((view.y - 1) / side)
            }
            for member in viewMembers { result.viewOfPoint[Int(member)] = shown }
            result.members.append(contentsOf: viewMembers)
            result.memberStarts.append(Int32(result.members.count))
            result.hiddenCounts.append(0)
            guard hides, view.collisionMode != .none else { continue }
            for copy in region.copiesOnMap(view) {
                let shift = region.offset(copy, x: view.x, y: view.y)
                grid.insert(view.shape(dx: shift.x, dy: shift.y))
                gridOwners.append(shown)
            }
        }
        // Each hidden view's points go to the shown view that hid it: of those its shape overlaps, the highest
        // priority, then the nearest; a view hidden at every copy but overlapping none (which placement does not make)
        // goes to the nearest shown view.
        for (index, view) in placement.views.enumerated() where !placement.visible[index] {
            var hider: Int32 = -1, best = (priority: -Float.infinity, distance: Double.infinity)
            let copies = region.copiesOnMap(view)
            for copy in copies.isEmpty ? [0] : copies {
                let shift = region.offset(copy, x: view.x, y: view.y)
                grid.forEachCollision(with: view.shape(dx: shift.x, dy: shift.y)) { filed in
                    let owner = gridOwners[filed], other = placement.views[placementOfShown[Int(owner)]]
                    let key = (
                        priority: other.displayPriority.rawValue,
                        distance: hypot(other.x - view.x - shift.x, other.y - view.y - shift.y)
                    )
                    if key.priority > best.priority || (key.priority == best.priority && key.distance < best.distance) {
                        best = key
                        hider = owner
                    }
                }
            }
            if hider < 0 { hider = nearestShown(to: view, in: result, side: side) }
            guard hider >= 0 else { continue }
            let hidden = membersOf(index)
            for member in hidden { result.viewOfPoint[Int(member)] = ~hider }
            result.hiddenCounts[Int(hider)] += Int32(hidden.count)
        }
        return result
    }

    /// The shown view nearest a view's point, across the antimeridian too; -1 when none is shown.
    private func nearestShown(to view: PlacementView, in result: WorldPlacement, side: Double) -> Int32 {
        let x = (view.x - 1) / side, y = (view.y - 1) / side
        var nearest: Int32 = -1, distance = Double.infinity
        for shown in 0..<result.count {
            var dx = abs(result.x[shown] - x)
            dx = min(dx - dx.rounded(.down), 1 - (dx - dx.rounded(.down)))
            let dy = result.y[shown] - y, squared = dx * dx + dy * dy
            if squared < distance {
                distance = squared
                nearest = Int32(shown)
            }
        }
        return nearest
    }
}
