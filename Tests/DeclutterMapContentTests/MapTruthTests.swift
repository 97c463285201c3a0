import DeclutterClustering
import DeclutterGeometry
import DeclutterInput
import DeclutterMapContent
import DeclutterPlacement
import DeclutterStyle
import DeclutterTestSupport
import Foundation
import Testing

/// The promises a static map keeps on any data, checked on random and clumped point sets with every bundled
/// style, at zooms 0–18 and bearings 0, 30 and 90: no two shown views overlap, every view sits at its members'
/// count-weighted centroid, shown clusters stay compact, every point is in exactly one view, and styles that
/// cluster all their categories together hide no point on the map.
@Suite struct MapTruthTests {
    static func bundledStyles() throws -> [MarkerStyle] {
        let folder = stylesFolder
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
            .sorted()
            .map { try MarkerStyle.load(contentsOf: folder.appendingPathComponent($0)) }
    }

    /// Clumps of every size (a dense city, a region, a country), some duplicates and lone points, some straddling
    /// the antimeridian; categories skewed so that one dominates.
    static func clumped(_ count: Int, categories: [String], seed: UInt64) -> (
        points: [ClusterPoint], centres: [Coordinate]
    ) {
        var random = SplitMix64(state: seed)
        let centres = (0..<12).map { index -> Coordinate in
            index == 0
                ? Coordinate(longitude: 179.5, latitude: -17.8)
                : Coordinate(longitude: random.unit() * 340 - 170, latitude: random.unit() * 130 - 60)
        }
        let spreads = [0.002, 0.05, 0.5, 3, 12]
        var points: [ClusterPoint] = []
        points.reserveCapacity(count)
        while points.count < count {
            let longitude: Double, latitude: Double
            if random.below(10) == 0 {
                longitude = random.unit() * 360 - 180
                latitude = random.unit() * 160 - 80
            } else {
                let centre = centres[random.below(centres.count)], spread = spreads[random.below(spreads.count)]
                let raw = centre.longitude + random.normal() * spread
                longitude = raw > 180 ? raw - 360 : raw < -180 ? raw + 360 : raw
                latitude = max(-84, min(84, centre.latitude + random.normal() * spread * 0.7))
            }
            let category = categories[
                min(categories.count - 1, random.below(categories.count * 2) / 2 * (random.below(3) == 0 ? 1 : 0))]
            let point = ClusterPoint(longitude: longitude, latitude: latitude, category: category)
            points.append(point)
            // Now and then the same place twice.
            if random.below(50) == 0 && points.count < count { points.append(point) }
        }
        return (points, centres)
    }

    /// Uniformly random points over a box.
    static func uniform(
        _ count: Int, categories: [String], box: (west: Double, south: Double, east: Double, north: Double),
        seed: UInt64
    ) -> [ClusterPoint] {
        var random = SplitMix64(state: seed)
        return (0..<count).map { _ in
            ClusterPoint(
                longitude: box.west + random.unit() * (box.east - box.west),
                latitude: box.south + random.unit() * (box.north - box.south),
                category: categories[random.below(categories.count)])
        }
    }

    /// What went wrong with one map, if anything.
    struct Findings {
        var overlaps: [String] = []
        var displaced: [String] = []
        var spread: [String] = []
        var membership: [String] = []
        var hiddenInView = 0
        var visibleViews = 0
        var visibleClusters = 0
    }

    /// Checks every promise on the views of one map.
    static func check(_ annotator: MapAnnotator, camera: MapCamera) throws -> Findings {
        let style = annotator.style
        let map = try annotator.annotate(camera)
        var findings = Findings()
        // Every point in exactly one view.
        var owner = [Int](repeating: -1, count: annotator.points.count)
        for (index, annotation) in map.annotations.enumerated() {
            for member in annotation.members {
                if owner[member] >= 0 { findings.membership.append("point \(member) in two views") }
                owner[member] = index
            }
            if annotation.categoryCounts.reduce(0, +) != annotation.members.count {
                findings.membership.append("counts of view \(index)")
            }
        }
        if owner.contains(-1) { findings.membership.append("\(owner.filter { $0 < 0 }.count) points in no view") }

        /// A point's map position on the copy of the world nearest (x, y).
        func position(of member: Int, near x: Double, y: Double) -> (x: Double, y: Double) {
            let point = annotator.points[member]
            let reference = camera.worldPoint(atX: x, y: y)
            var worldX = WebMercator.x(longitude: point.location?.longitude ?? .nan)
            worldX += (reference.x - worldX).rounded()
            return camera.point(worldX: worldX, worldY: WebMercator.y(latitude: point.location?.latitude ?? .nan))
        }

        var shapes: [(shape: CollisionGrid.Shape, view: Int)] = []
        let limit = style.maximumClusterSpread
        for (index, annotation) in map.annotations.enumerated() {
            let geometry = style.markerGeometry(count: annotation.members.count)
            let anchorX = annotation.frame.x + geometry.anchorX, anchorY = annotation.frame.y + geometry.anchorY
            // A pitched map's hidden views off the map may stand for points behind the camera, which have no place on
            // screen (their frame is at their flat point): only views on the map are measured there.
            if camera.pitch != 0, !annotation.visible,
                !(0...camera.width).contains(anchorX) || !(0...camera.height).contains(anchorY)
            {
                continue
            }
            // At the count-weighted centroid of its members in Web Mercator (the world copy nearest the view).
            var sumX = 0.0, sumY = 0.0
            for member in annotation.members {
                let point = annotator.points[member]
                var worldX = WebMercator.x(longitude: point.location?.longitude ?? .nan)
                worldX += (camera.worldPoint(atX: anchorX, y: anchorY).x - worldX).rounded()
                sumX += worldX
                sumY += WebMercator.y(latitude: point.location?.latitude ?? .nan)
            }
            let centroid = camera.point(
                worldX: sumX / Double(annotation.members.count), worldY: sumY / Double(annotation.members.count))
            if hypot(centroid.x - anchorX, centroid.y - anchorY) > 0.5 {
                findings.displaced.append(
                    "view \(index) of \(annotation.members.count) is \(hypot(centroid.x - anchorX, centroid.y - anchorY)) pt off"
                )
            }
            guard annotation.visible else { continue }
            findings.visibleViews += 1
            // A shown view is on the map: its frame or a copy reaches into it.
            let corners = [(annotation.frame.x, annotation.frame.y)] + annotation.copies.map { ($0.x, $0.y) }
            if !corners.contains(where: {
                $0.0 < camera.width && $0.1 < camera.height && $0.0 + annotation.frame.width > 0
                    && $0.1 + annotation.frame.height > 0
            }) {
                findings.membership.append("view \(index) is shown but off the map at \(annotation.frame)")
            }
            let centreX = annotation.frame.x + annotation.frame.width / 2,
                centreY = annotation.frame.y + annotation.frame.height / 2
            if annotation.kind == .cluster {
                findings.visibleClusters += 1
                let farthest =
                    annotation.members.map { member in
                        let point = position(of: member, near: centreX, y: centreY)
                        return hypot(point.x - centreX, point.y - centreY)
                    }.max() ?? 0
                if farthest > limit + 1e-6 {
                    findings.spread.append(
                        "cluster of \(annotation.members.count) reaches \(farthest) pt (limit \(limit))")
                }
            }
            guard geometry.collisionMode != .none else { continue }
            for corner in [(annotation.frame.x, annotation.frame.y)] + annotation.copies.map({ ($0.x, $0.y) }) {
                let (x, y, width, height) = (corner.0, corner.1, annotation.frame.width, annotation.frame.height)
                // Shrunk by the tolerance, so that shapes overlapping by 0.05 pt or less count as touching.
                let shape: CollisionGrid.Shape =
                    geometry.collisionMode == .circle
                    ? .circle(x: x + width / 2, y: y + height / 2, radius: min(width, height) / 2 - 0.025)
                    : .box(minX: x + 0.025, minY: y + 0.025, maxX: x + width - 0.025, maxY: y + height - 0.025)
                shapes.append((shape, index))
            }
        }
        for a in shapes.indices {
            for b in shapes.indices where b > a && shapes[a].shape.intersects(shapes[b].shape) {
                findings.overlaps.append(
                    "views \(shapes[a].view) and \(shapes[b].view): \(shapes[a].shape) \(shapes[b].shape)")
            }
        }
        // Points on the map whose view is hidden, counted again here.
        let onMap = WorldRepeat(camera: camera, margin: 0)
        var inView = 0, hidden = 0
        for (member, index) in owner.enumerated() where index >= 0 {
            let point = camera.projection.flatPoint(
                worldX: WebMercator.x(longitude: annotator.points[member].location?.longitude ?? .nan),
                worldY: WebMercator.y(latitude: annotator.points[member].location?.latitude ?? .nan))
            guard onMap.isOnMap(flatX: point.x, flatY: point.y) else { continue }
            inView += 1
            if !map.annotations[index].visible { hidden += 1 }
        }
        if inView != map.pointsInView || hidden != map.hiddenPointsInView {
            findings.membership.append(
                "in view \(map.pointsInView) / hidden \(map.hiddenPointsInView), counted \(inView) / \(hidden)")
        }
        findings.hiddenInView = hidden
        return findings
    }

    /// Cameras over the data: the world, and each clump's centre at a spread of zooms and bearings.
    static func cameras(centres: [Coordinate], seed: UInt64, count: Int) throws -> [MapCamera] {
        var random = SplitMix64(state: seed)
        let bearings = [0.0, 30, 90], sizes = [(800.0, 600.0), (400.0, 700.0), (1024.0, 768.0)]
        var cameras: [MapCamera] = []
        for index in 0..<count {
            let size = sizes[index % sizes.count]
            let zoom = index == 0 ? 0 : Double(random.below(19)) + (random.below(2) == 0 ? 0 : random.unit())
            var centre = centres[random.below(centres.count)]
            centre.longitude = max(-180, min(180, centre.longitude + random.normal() * 30 / pow(2, zoom)))
            centre.latitude = max(-80, min(80, centre.latitude + random.normal() * 20 / pow(2, zoom)))
            cameras.append(
                try MapCamera(
                    center: centre, zoom: min(18, zoom), bearing: bearings[index % bearings.count],
                    width: size.0, height: size.1))
        }
        return cameras
    }

    @Test(arguments: [(1_000, UInt64(1)), (10_000, UInt64(2)), (30_000, UInt64(3))])
    func clumpedDataStaysTrueInEveryStyle(count: Int, seed: UInt64) throws {
        for style in try Self.bundledStyles() {
            let (points, centres) = Self.clumped(count, categories: style.categories.map(\.name), seed: seed)
            let annotator = try MapAnnotator(points: points, style: style)
            for camera in try Self.cameras(centres: centres, seed: seed &* 31, count: 24) {
                let findings = try Self.check(annotator, camera: camera)
                let scene = "\(style.name), \(count) points, zoom \(camera.zoom), bearing \(camera.bearing)"
                #expect(findings.overlaps.isEmpty, "\(scene): \(findings.overlaps.prefix(3))")
                #expect(findings.displaced.isEmpty, "\(scene): \(findings.displaced.prefix(3))")
                #expect(findings.spread.isEmpty, "\(scene): \(findings.spread.prefix(3))")
                #expect(findings.membership.isEmpty, "\(scene): \(findings.membership.prefix(3))")
                // One clustering identifier for all categories: nothing on the map is hidden.
                if Set(style.categories.compactMap(\.clusteringIdentifier)).count == 1 {
                    #expect(findings.hiddenInView == 0, "\(scene)")
                }
            }
        }
    }

    /// Pitched maps keep the same promises: clusters at their members' centroid on the ground, no overlaps, spreads
    /// within the limit on screen, every point once.
    @Test func pitchedMapsStayTrueInEveryStyle() throws {
        for style in try Self.bundledStyles() {
            let (points, centres) = Self.clumped(10_000, categories: style.categories.map(\.name), seed: 4)
            let annotator = try MapAnnotator(points: points, style: style)
            for (index, flat) in try Self.cameras(centres: centres, seed: 4 &* 31, count: 16).enumerated() {
                let camera = try MapCamera(
                    center: flat.center, zoom: flat.zoom, bearing: flat.bearing, pitch: [60.0, 45, 20][index % 3],
                    width: flat.width, height: flat.height)
                let findings = try Self.check(annotator, camera: camera)
                let scene = "\(style.name), zoom \(camera.zoom), bearing \(camera.bearing), pitch \(camera.pitch)"
                let problems = findings.overlaps + findings.displaced + findings.spread + findings.membership
                #expect(problems.isEmpty, "\(scene): \(problems.prefix(3))")
                if Set(style.categories.compactMap(\.clusteringIdentifier)).count == 1 {
                    #expect(findings.hiddenInView == 0, "\(scene)")
                }
            }
        }
    }

    @Test func hundredThousandPointsStayTrueInEveryStyle() throws {
        var clusters = 0
        for style in try Self.bundledStyles() {
            // Half uniform over Europe, half in clumps round the world.
            let names = style.categories.map(\.name)
            let points =
                Self.uniform(50_000, categories: names, box: (-10, 35, 30, 60), seed: 9)
                + Self.clumped(50_000, categories: names, seed: 10).points
            let annotator = try MapAnnotator(points: points, style: style)
            for (zoom, bearing) in [(0.0, 0.0), (3.0, 30.0), (4.5, 90.0), (9.3, 30.0)] {
                let camera = try MapCamera(
                    center: Coordinate(longitude: 10, latitude: 48), zoom: zoom, bearing: bearing, width: 1024,
                    height: 768)
                let findings = try Self.check(annotator, camera: camera)
                let problems = findings.overlaps + findings.displaced + findings.spread + findings.membership
                #expect(problems.isEmpty, "\(style.name), zoom \(zoom): \(problems.prefix(3))")
                if Set(style.categories.compactMap(\.clusteringIdentifier)).count == 1 {
                    #expect(findings.hiddenInView == 0)
                }
                clusters += findings.visibleClusters
            }
        }
        // Dense enough that clusters pack the map: the checks above had plenty to check.
        #expect(clusters > 500)
    }
}
