import DeclutterClustering
import DeclutterGeometry
import DeclutterPlacement
import DeclutterStyle
import DeclutterSupport
import Foundation

/// Why points cannot be turned into map annotations.
public struct AnnotationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong and where.
    public var message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

/// Turns points into the views a static map shows, true to the data: clustered, sized and placed by the style
/// and MapKit's rules, with no two shown views overlapping.
///
/// 1. The clustering index groups points at the zoom whose radius on the map is at most the style's
///    ``MarkerStyle/clusterRadius`` (the camera's zoom rounded up), so every group is smaller than an icon.
/// 2. Each group becomes a view at its members' centroid in Web Mercator: a balloon for one point, else the
///    cluster icon of its count, with the style's offset, collision mode and its members' highest priority.
/// 3. Placement merges colliding views of one clustering identifier into clusters sized by their merged count and
///    checked again, never spreading past ``MarkerStyle/maximumClusterSpread``; then it hides by priority.
///
/// Only the points on the map take part, so every cluster stands on the map and counts what the map shows. Where
/// the world repeats across the map (or the map shows the antimeridian), each view stands at every copy of its
/// point on the map. Points off the map stay in the result in hidden annotations, so that a layout accounts for
/// every point.
///
/// On a pitched map (``MapCamera/pitch``) markers stay upright and keep their size, as in MapKit's pitched maps:
/// each view stands at its point's projection (a balloon's tip on it) and placement runs on the pitched map as on a
/// flat one, ties going to the view nearer the camera. Groups start from the zoom where the ground is largest on
/// screen (the bottom row), so no group is wider than an icon anywhere; merging on screen then makes a cluster near
/// the top, where the ground is smaller, cover more ground than one near the bottom; a cluster stands where its
/// members' centroid on the ground appears. Points behind the camera or beyond the map are hidden annotations (those
/// behind the camera, which no point of the map shows, framed at their place on the flat map).
public struct MapAnnotator: Sendable {
    /// The style giving categories, identifiers, view sizes and priorities.
    public let style: MarkerStyle
    /// The points, each with a category of the style.
    public let points: [ClusterPoint]
    /// The clustering index over the points, built once and reusable for any camera.
    public let index: ClusterIndex
    /// Each point's world position at full precision (the index keeps float32, as supercluster does).
    public let projected: ProjectedPoints
    /// How many points lie at exactly 0°, 0° (almost always a missing value), counted once here rather than by every
    /// map drawn from the annotator.
    public let pointsAtZeroZero: Int
    /// The points beyond ±85.0511°, where Web Mercator ends (drawn on the world's edge), found once here.
    public let pointsBeyondMercator: [Int]
    /// ``projected``'s arrays, read in the hot loops.
    let worldX: [Double], worldY: [Double]
    /// Each zoom's groups kept across maps, with a grid over them, for many maps of the same points; nil (the
    /// default, the reference) works them out for each map.
    public var levels: AnnotatorLevels?

    /// The highest zoom the index is built for: the camera's highest, so no map sees a group wider than an icon.
    public static let maximumZoom = Int(MapCamera.zoomRange.upperBound)

    /// Indexes the points for the style: each point takes its category's clustering identifier, or keeps its own with
    /// `keepingIdentifiers` (identifiers read from a property, as `--group-by` reads them).
    ///
    /// A point without a category takes the style's first; an unknown category or an unlocated point is an error.
    /// The hierarchy is built from the top zoom down to `minimumZoom`: a single map passes its own zoom and skips the
    /// wide zooms below it, where every point has most others in reach and indexing costs the most. Levels at and
    /// above `minimumZoom` are the same either way, so the map's clusters are too.
    /// - Parameters:
    ///   - projected: The points' world positions when the caller has projected them already; nil projects them here.
    ///   - maximumZoom: The highest zoom the hierarchy is built for (default ``maximumZoom``); maps up to camera zoom z
    ///     need ``indexZoom(forZoom:style:)`` of z: a tileset's highest zoom skips the levels above it.
    /// - Throws: ``AnnotationError`` naming the point and what was expected.
    public init(
        points: [ClusterPoint], projected: ProjectedPoints? = nil, style: MarkerStyle, minimumZoom: Int = 0,
        maximumZoom: Int = MapAnnotator.maximumZoom, keepingIdentifiers: Bool = false
    ) throws {
        let assignment = CategoryAssignment(style: style)
        var prepared = points
        let projected = projected ?? ProjectedPoints(points)
        var zeroZero = 0, beyondMercator: [Int] = []
        for index in prepared.indices {
            if prepared[index].location?.isZeroZero == true { zeroZero += 1 }
            if prepared[index].location?.isBeyondWebMercator == true {
                beyondMercator.append(index)
            }
            guard projected.isLocated(index) else {
                throw AnnotationError("point \(index) has no coordinate; a map needs every point located")
            }
            // Written only where it changes: points already prepared (a tileset's) are then shared, not copied.
            let (category, identifier) = try assignment.assignment(
                of: prepared[index], index: index, keepingIdentifier: keepingIdentifiers)
            if prepared[index].category != category || prepared[index].clusteringIdentifier != identifier {
                prepared[index].category = category
                prepared[index].clusteringIdentifier = identifier
            }
        }
        self.style = style
        self.points = prepared
        self.projected = projected
        pointsAtZeroZero = zeroZero
        pointsBeyondMercator = beyondMercator
        worldX = projected.x
        worldY = projected.y
        // Extent 256 makes the radius read in map points at whole zooms. The index counts categories in the style's
        // order, and every point has one, so its point categories are the style's category indices.
        let top = min(max(maximumZoom, 0), Self.maximumZoom)
        index = ClusterIndex(
            points: prepared, projected: projected,
            options: ClusterOptions(
                radius: style.clusterRadius, extent: 256, minZoom: min(max(minimumZoom, 0), top), maxZoom: top),
            categories: style.categories.map(\.name))
    }

    /// The index zoom whose groups a map at `zoom` starts from: the lowest at or above the map's zoom, and high
    /// enough that a group (whose members lie within four index radii of its centre) spans at most half the spread
    /// limit, whatever radius the style sets.
    func groupZoom(for zoom: Double) -> Int {
        min(index.options.maxZoom + 1, max(index.options.minZoom, Self.indexZoom(forZoom: zoom, style: style)))
    }

    /// The index zoom whose groups a map at camera zoom `zoom` starts from in `style`, before it is held to the
    /// index's zooms (see ``groupZoom(for:)``); an index whose `maximumZoom` is one below it serves such maps.
    public static func indexZoom(forZoom zoom: Double, style: MarkerStyle) -> Int {
        let radius = style.clusterRadius, limit = style.maximumClusterSpread
        let level = max(zoom.rounded(.up), (zoom + log2(8 * radius / limit)).rounded(.up))
        return Int(min(Double(maximumZoom + 1), level))
    }

    /// The views for a camera, with their placement decided.
    ///
    /// - Throws: ``AnnotationError`` when the camera's zoom is below the zoom the index was built down to.
    public func annotations(for camera: MapCamera) throws -> [MapAnnotation] {
        try annotate(camera).annotations
    }

    /// The views for a camera, with their placement decided and the points they hide counted.
    ///
    /// - Throws: ``AnnotationError`` when the camera's zoom is below the zoom the index was built down to.
    /// - Parameter reserved: Areas of the map that views keep clear of, such as a legend (see ``PlacementEngine``).
    /// - Parameter pointsOffMap: Whether points off the map are kept in hidden annotations and every cluster lists
    ///   its members, so that every point is in one (as a layout lists them); a map drawn as an image only needs the
    ///   views on it and their counts, so with false, a cluster's ``MapAnnotation/members`` holds its lowest member
    ///   alone (its ``MapAnnotation/count`` says how many), and with ``levels`` only the groups near the map are
    ///   looked at. The views, their places and their drawing order are the same either way.
    public func annotate(_ camera: MapCamera, reserved: [CollisionGrid.Shape] = [], pointsOffMap: Bool = true) throws
        -> AnnotatedMap
    {
        let zoom = camera.zoom.rounded(.down)
        guard zoom >= Double(index.options.minZoom) else {
            throw AnnotationError(
                "zoom \(Int(zoom)) is below the index's lowest zoom \(index.options.minZoom); "
                    + "build the annotator with minimumZoom at most \(Int(zoom))")
        }
        // On a pitched map the ground is largest on screen at the bottom row, by its scale against the centre's.
        let groupZoom = groupZoom(for: camera.zoom + log2(camera.perspective.scale(atY: camera.height)))
        let level = levels?.level(groupZoom) {
            AnnotatorLevels.Level(index.groups(atZoom: groupZoom), worldX: worldX, worldY: worldY)
        }
        let groups = level?.groups ?? index.groups(atZoom: groupZoom)
        // Views and their copies are looked for this far around the map: farther than a group's member can lie from
        // its centroid, or a view from its point.
        let margin = style.maximumClusterSpread + max(style.largestClusterDiameter, style.balloon.height)
        let region = WorldRepeat(camera: camera, margin: margin)
        // Without points off the map to account for, only groups whose centroid lies near the map matter: those in
        // the view's box grown by twice the margin (a turned map's box holds the turned view).
        var near: [Int32]?
        if let level, !pointsOffMap, camera.perspective.isFlat {
            var box = camera.visibleWorldBounds
            let grow = 2 * margin / camera.worldSize
            box.include(x: box.minX - grow, y: box.minY - grow)
            box.include(x: box.maxX + grow, y: box.maxY + grow)
            near = level.groups(within: box)
        }
        let candidates = self.candidates(
            groups, camera: camera, region: region, level: level, only: near, pointsOffMap: pointsOffMap)
        let placement = PlacementEngine.place(
            candidates.views, width: camera.width, height: camera.height, clusters: clusterRule,
            hulls: candidates.hulls, repeating: region, reserved: reserved,
            nearerFirst: region.perspective != nil)
        return annotations(placement, candidates, camera: camera, region: region, listsMembers: pointsOffMap)
    }

    /// The views placement starts from, with what each stands for, and the points off the map.
    struct Candidates {
        var views: [PlacementView] = [], hulls: [ConvexHull] = []
        /// Each view's members, as ranges of `members` starting at `memberStarts`.
        var memberStarts: [Int32] = [0], members: [Int32] = []
        /// Each view's members per category, a category count wide; empty for a world placement.
        var counts: [Int] = []
        /// Hidden annotations of the points off the map.
        var offMap: [MapAnnotation] = []
    }

    /// Only points on the map take part: each group's points on it become a view at their centroid (on the copy of
    /// the world nearest the map's centre; on a pitched map, the nearest in front of the camera), its points off the
    /// map a hidden annotation of their own.
    /// - Parameters:
    ///   - level: The groups' centroids, boxes and hulls when kept (``AnnotatorLevels``), else worked out here.
    ///   - only: The groups to look at, ascending; nil for all of them.
    ///   - pointsOffMap: Whether points off the map get hidden annotations.
    ///   - everyGroup: Whether nearly every group is on the map (a map of the whole world): the views' arrays are then
    ///     made their full size at once, not grown by doubling, which held twice a million-point world's views; and
    ///     the views' category counts, which only annotations read, are not kept (a count per category per view).
    func candidates(
        _ groups: LevelGroups, camera: MapCamera, region: WorldRepeat, level: AnnotatorLevels.Level? = nil,
        only: [Int32]? = nil, pointsOffMap: Bool = true, everyGroup: Bool = false
    ) -> Candidates {
        let frame = CameraFrame(camera)
        var result = Candidates()
        if everyGroup {
            result.views.reserveCapacity(groups.count)
            result.hulls.reserveCapacity(groups.count)
            result.memberStarts.reserveCapacity(groups.count + 1)
            result.members.reserveCapacity(groups.members.count)
        }
        var inside: [Int32] = [], outside: [Int32] = [], insidePoints: [ConvexHull.Point] = []
        /// The mean world position of some points.
        func mean<Members: Collection>(_ members: Members) -> (x: Double, y: Double) where Members.Element == Int32 {
            var sumX = 0.0, sumY = 0.0
            for member in members {
                sumX += worldX[Int(member)]
                sumY += worldY[Int(member)]
            }
            return (sumX / Double(members.count), sumY / Double(members.count))
        }
        /// The flat map point of a world point moved by `shift` in u (a whole number of worlds).
        func flat(_ world: (x: Double, y: Double), shift: Double) -> (x: Double, y: Double) {
            frame.screen(u: frame.u(worldX: world.x) - shift, v: frame.v(worldY: world.y))
        }
        /// The map point of a world point moved by `shift` in u; on a pitched map, its flat point when it lies behind
        /// the camera.
        func screen(_ world: (x: Double, y: Double), shift: Double) -> (x: Double, y: Double) {
            let point = flat(world, shift: shift)
            return region.projected(flatX: point.x, flatY: point.y) ?? point
        }
        /// A hidden annotation for points off the map.
        func hide<Members: Collection>(_ members: Members, counts: [Int], shift: Double)
        where Members.Element == Int32 {
            guard pointsOffMap else { return }
            let world = mean(members), point = flat(world, shift: shift)
            let projected = region.projected(flatX: point.x, flatY: point.y), centre = projected ?? point
            // Behind the camera the map has no point for them: the coordinate comes from the world point itself.
            let coordinate =
                projected == nil
                ? Coordinate(
                    longitude: WebMercator.longitude(x: world.x - world.x.rounded(.down)),
                    latitude: WebMercator.latitude(y: world.y)) : nil
            result.offMap.append(
                annotation(
                    members: members.map(Int.init), counts: counts, x: centre.x, y: centre.y,
                    geometry: style.markerGeometry(categoryCounts: counts), camera: camera, copies: [], visible: false,
                    coordinate: coordinate))
        }
        /// Sorts a group's members into those on the map, with their points, and those off it.
        func classify(_ members: ArraySlice<Int32>, shift: Double, all: (x: Double, y: Double)) {
            for member in members {
                let point = flat((worldX[Int(member)], worldY[Int(member)]), shift: shift)
                if region.isOnMap(flatX: point.x, flatY: point.y) {
                    inside.append(member)
                    let onMap = region.projected(flatX: point.x, flatY: point.y) ?? all
                    insidePoints.append(ConvexHull.Point(x: onMap.x, y: onMap.y))
                } else {
                    outside.append(member)
                }
            }
        }
        func visit(_ group: Int) {
            let members = groups.members(of: group),
                world = level.map { (x: $0.centroidX[group], y: $0.centroidY[group]) } ?? mean(members)
            // One copy of the world for the whole group, the one nearest the map's centre, so the seam cannot cut it.
            var shift = frame.nearestShift(worldX: world.x)
            // A group lies within half the spread limit of its centroid (``groupZoom(for:)``): one whose centroid is
            // outside the region has no point on the map.
            let flatCentre = flat(world, shift: shift)
            guard let copies = region.copies(flatX: flatCentre.x, flatY: flatCentre.y) else {
                hide(members, counts: categoryCounts(of: members), shift: shift)
                return
            }
            // A pitched map's copies are not a fixed step apart on screen, so the view stands on a copy in the region
            // (in front of the camera): the one nearest the copy nearest the centre.
            if region.perspective != nil, !copies.contains(0) {
                shift -= Double(copies.lowerBound > 0 ? copies.lowerBound : copies.upperBound) * frame.size
            }
            let all = screen(world, shift: shift)
            inside.removeAll(keepingCapacity: true)
            outside.removeAll(keepingCapacity: true)
            insidePoints.removeAll(keepingCapacity: true)
            // A kept group wholly on a flat map facing north: every member is inside, and its hull is its kept hull's.
            if let level, region.perspective == nil, camera.bearing == 0,
                let hull = level.hullOnMap(
                    group, width: camera.width, height: camera.height, flat: { flat($0, shift: shift) })
            {
                inside.append(contentsOf: members)
                insidePoints = hull
            } else {
                classify(members, shift: shift, all: all)
            }
            guard !inside.isEmpty else {
                hide(members, counts: categoryCounts(of: members), shift: shift)
                return
            }
            if !outside.isEmpty { hide(outside, counts: categoryCounts(of: outside), shift: shift) }
            let counts = outside.isEmpty ? categoryCounts(of: members) : categoryCounts(of: inside)
            let centre = outside.isEmpty ? all : screen(mean(inside), shift: shift)
            let geometry = style.markerGeometry(categoryCounts: counts), offset = geometry.centerOffset
            result.views.append(
                PlacementView(
                    x: centre.x, y: centre.y, width: geometry.width, height: geometry.height, offsetX: offset.x,
                    offsetY: offset.y, collisionMode: geometry.collisionMode, displayPriority: priority(counts),
                    clusteringGroup: groups.identifierOfGroup[group], weight: inside.count))
            result.hulls.append(inside.count == 1 ? ConvexHull(x: centre.x, y: centre.y) : ConvexHull(insidePoints))
            result.members.append(contentsOf: inside)
            result.memberStarts.append(Int32(result.members.count))
            if !everyGroup { result.counts.append(contentsOf: counts) }
        }
        if let only {
            for group in only { visit(Int(group)) }
        } else {
            for group in 0..<groups.count { visit(group) }
        }
        return result
    }

    /// The annotations of a placement: each view at the copy nearest the map's centre, with its other copies on the
    /// map, the points off the map hidden, drawing order set.
    /// - Parameter listsMembers: Whether a cluster lists its members, sorted; else it holds its lowest alone, which is
    ///   all the drawing order needs (gathering and sorting every member was a tenth of a zoom-2 map).
    func annotations(
        _ placement: Placement, _ candidates: Candidates, camera: MapCamera, region: WorldRepeat,
        listsMembers: Bool = true
    ) -> AnnotatedMap {
        let width = style.categories.count
        var annotations = candidates.offMap
        annotations.reserveCapacity(candidates.offMap.count + placement.views.count)
        var hidden = 0
        for (index, view) in placement.views.enumerated() {
            var members: [Int] = [], counts = [Int](repeating: 0, count: width), count = 0, lowest = Int32.max
            for part in placement.members(of: index).lazy.map(Int.init) {
                let range = Int(candidates.memberStarts[part])..<Int(candidates.memberStarts[part + 1])
                count += range.count
                if listsMembers {
                    members.append(contentsOf: candidates.members[range].lazy.map(Int.init))
                } else {
                    lowest = min(lowest, candidates.members[range].min() ?? .max)
                }
                for category in 0..<width { counts[category] += candidates.counts[part * width + category] }
            }
            if !listsMembers {
                members = [Int(lowest)]
            } else if placement.isCluster(index) {
                members.sort()
            }
            if !placement.visible[index] { hidden += count }
            // The copy nearest the map's centre is the view's frame; its other copies on the map are drawn too, but
            // for those the furniture covers.
            let covered = placement.coveredCopies[Int32(index)] ?? []
            let onMap = region.copiesOnMap(view).filter { !covered.contains($0) }
            let nearest = region.nearestCopy(of: view, among: onMap.isEmpty ? [0] : onMap)
            let geometry = style.markerGeometry(categoryCounts: counts)
            let copies = onMap.filter { $0 != nearest }.map { copy -> (x: Double, y: Double) in
                let shift = region.offset(copy, x: view.x, y: view.y)
                return (view.x + shift.x - geometry.anchorX, view.y + shift.y - geometry.anchorY)
            }
            let shift = region.offset(nearest, x: view.x, y: view.y)
            annotations.append(
                annotation(
                    members: members, count: count, counts: counts, x: view.x + shift.x, y: view.y + shift.y,
                    geometry: geometry, camera: camera, copies: copies, visible: placement.visible[index],
                    priority: view.displayPriority))
        }
        // Lowest priority first, so higher ones are drawn over them; then top to bottom, as MapKit stacks views.
        annotations.sort {
            ($0.priority, $0.frame.y + $0.frame.height, $0.members.first ?? 0) < (
                $1.priority, $1.frame.y + $1.frame.height, $1.members.first ?? 0
            )
        }
        var inView = [Int](repeating: 0, count: width)
        for (offset, count) in candidates.counts.enumerated() { inView[offset % width] += count }
        return AnnotatedMap(
            annotations: annotations, pointsInView: candidates.members.count, hiddenPointsInView: hidden,
            categoryCountsInView: inView)
    }

    /// Members per category (the style's order) of some of the points.
    public func categoryCounts(of members: some Sequence<Int32>) -> [Int] {
        var counts = [Int](repeating: 0, count: style.categories.count)
        for member in members {
            let category = Int(index.pointCategory[Int(member)])
            if category >= 0 { counts[category] += 1 }
        }
        return counts
    }

    /// The points on the map per category (the style's order), and where on the map they lie; found by projecting
    /// every point, before any placement, so that a legend can be sized and put where it covers least.
    public func pointsOnMap(_ camera: MapCamera, cellSize: Double = 8) -> (categoryCounts: [Int], density: PointDensity)
    {
        let frame = CameraFrame(camera), region = WorldRepeat(camera: camera, margin: 0)
        var counts = [Int](repeating: 0, count: style.categories.count)
        var density = PointDensity(width: camera.width, height: camera.height, cellSize: cellSize)
        for point in 0..<points.count {
            let shift = frame.nearestShift(worldX: worldX[point])
            let flat = frame.screen(u: frame.u(worldX: worldX[point]) - shift, v: frame.v(worldY: worldY[point]))
            guard let onMap = region.pointOnMap(flatX: flat.x, flatY: flat.y) else { continue }
            counts[Int(index.pointCategory[point])] += 1
            // A flat map counts the copy nearest the centre, as it always has; a pitched one where the point shows.
            let screen = region.perspective == nil ? flat : onMap
            density.add(x: screen.x, y: screen.y)
        }
        density.finish()
        return (counts, density)
    }

    /// The rule placement merges with: the style's cluster icons by count, and its spread limit.
    var clusterRule: ClusterRule {
        ClusterRule(
            views: style.cluster.buckets.map { bucket in
                let geometry = style.markerGeometry(count: max(2, bucket.minimumCount)), offset = geometry.centerOffset
                return (
                    bucket.minimumCount,
                    ClusterViewDescription(
                        width: geometry.width, height: geometry.height,
                        collisionMode: geometry.collisionMode, centerOffset: [offset.x, offset.y])
                )
            }, maximumSpread: style.maximumClusterSpread)
    }

    /// The highest priority among the categories present (a cluster takes its members' highest, as MapKit's do).
    func priority(_ counts: [Int]) -> DisplayPriority {
        var priority = DisplayPriority(-1)
        for (category, count) in zip(style.categories, counts) where count > 0 {
            priority = max(priority, category.displayPriority)
        }
        return priority
    }

    /// An annotation for a view whose point is at (x, y) on the map, standing for `count` points (by default, its
    /// members).
    func annotation(
        members: [Int], count: Int? = nil, counts: [Int], x: Double, y: Double, geometry: MarkerGeometry,
        camera: MapCamera,
        copies: [(x: Double, y: Double)], visible: Bool, priority: DisplayPriority? = nil,
        coordinate given: Coordinate? = nil
    ) -> MapAnnotation {
        let count = count ?? members.count
        let coordinate: Coordinate
        if let given {
            coordinate = given
        } else if count == 1, let location = points[members[0]].location {
            coordinate = location
        } else {
            // The centroid's longitude on the first copy of the world.
            let world = camera.worldPoint(atX: x, y: y)
            coordinate = Coordinate(
                longitude: WebMercator.longitude(x: world.x - world.x.rounded(.down)),
                latitude: WebMercator.latitude(y: world.y))
        }
        return MapAnnotation(
            kind: count == 1 ? .marker : .cluster, members: members, count: count, categoryCounts: counts,
            coordinate: coordinate,
            frame: (x - geometry.anchorX, y - geometry.anchorY, geometry.width, geometry.height), copies: copies,
            visible: visible, priority: priority ?? self.priority(counts))
    }

    /// World points to flat map points (the camera with no pitch) for one camera, with the world's copies: u runs east
    /// and v south from the map's centre in points, before the bearing turns them.
    struct CameraFrame {
        let centerX: Double, centerY: Double, size: Double
        let halfWidth: Double, halfHeight: Double
        let cosine: Double, sine: Double

        init(_ camera: MapCamera) {
            (centerX, centerY) = camera.centerWorld
            size = camera.worldSize
            halfWidth = camera.width / 2
            halfHeight = camera.height / 2
            let angle = camera.bearing * Double.pi / 180
            cosine = camera.bearing == 0 ? 1 : cos(angle)
            sine = camera.bearing == 0 ? 0 : sin(angle)
        }

        @inline(__always) func u(worldX: Double) -> Double { (worldX - centerX) * size }
        @inline(__always) func v(worldY: Double) -> Double { (worldY - centerY) * size }

        /// How far east (in u) the copy of the world nearest the centre lies from the first copy at this world x.
        func nearestShift(worldX: Double) -> Double { (u(worldX: worldX) / size).rounded() * size }

        /// The map point of (u, v).
        @inline(__always) func screen(u: Double, v: Double) -> (x: Double, y: Double) {
            (halfWidth + u * cosine + v * sine, halfHeight - u * sine + v * cosine)
        }
    }
}

extension AnnotationError: DeclutterError {
    /// Points a map cannot place (no location, a category the style lacks) are refused as out of range.
    public var kind: FailureKind { .outOfRange }
}
