import DeclutterGeometry
import DeclutterSupport
import DeclutterTestSupport
import Foundation
import Testing

@testable import DeclutterPlacement

@Suite struct PlacementTests {
    func view(
        _ id: String, _ x: Double, _ y: Double, mode: CollisionMode = .rectangle,
        priority: DisplayPriority = .defaultHigh,
        offset: [Double] = [0, 0], identifier: String? = nil, size: Double = 40
    ) -> PlacementAnnotation {
        PlacementAnnotation(
            id: id, x: x, y: y, width: size, height: size, centerOffset: offset, collisionMode: mode,
            displayPriority: priority, clusteringIdentifier: identifier)
    }

    func place(
        _ annotations: [PlacementAnnotation], width: Double = 400, height: Double = 400,
        clusterView: ClusterViewDescription = ClusterViewDescription()
    ) -> PlacementEngine.Result {
        PlacementEngine.place(
            PlacementScene(width: width, height: height, clusterView: clusterView, annotations: annotations))
    }

    @Test func rectangleAgainstCircleOnADiagonal() {
        // A's box ends at (120, 120). A circle of radius 20 centred at (135, 135) is 21.2 from that corner: clear.
        #expect(place([view("A", 100, 100), view("B", 135, 135, mode: .circle, priority: .defaultLow)]).hidden == [])
        // At (132, 132) the corner is 17.0 away: they collide and the lower priority hides.
        #expect(
            place([view("A", 100, 100), view("B", 132, 132, mode: .circle, priority: .defaultLow)]).hidden == ["B"])
        // Two boxes at (135, 135) overlap, where the circle did not.
        #expect(place([view("A", 100, 100), view("B", 135, 135, priority: .defaultLow)]).hidden == ["B"])
    }

    @Test func centerOffsetsMoveTheView() {
        // B's point is 50 below A's, clear of it; an offset of -30 lifts its view into A.
        #expect(place([view("A", 100, 100), view("B", 100, 150, priority: .defaultLow)]).hidden == [])
        #expect(
            place([view("A", 100, 100), view("B", 100, 150, priority: .defaultLow, offset: [0, -30])]).hidden == ["B"])
    }

    @Test func tiesHideTheViewFartherFromTheCentre() {
        // The viewport centre is (200, 200): A at 190 is nearer than B at 220, whatever the input order.
        #expect(place([view("A", 190, 200), view("B", 220, 200)]).hidden == ["B"])
        #expect(place([view("B", 220, 200), view("A", 190, 200)]).hidden == ["B"])
        // Equally far: the rules leave a tie, broken by id.
        #expect(place([view("Z", 185, 200), view("Y", 215, 200)]).hidden == ["Z"])
    }

    @Test func requiredViewsAreAlwaysShown() {
        let result = place([
            view("A", 100, 100, priority: .required), view("B", 110, 100, priority: .required),
            view("C", 120, 100, priority: DisplayPriority(999)),
        ])
        #expect(result.visible == ["A", "B"])
        #expect(result.hidden == ["C"])
    }

    @Test func chainsFollowPriorityNotInputOrder() {
        // A–B and B–C overlap, A–C do not. By priority: A shows, B hides, so C (lowest) shows.
        let a = view("A", 100, 100, priority: DisplayPriority(750)),
            b = view("B", 130, 100, priority: DisplayPriority(500))
        let c = view("C", 160, 100, priority: DisplayPriority(250))
        for order in [[a, b, c], [c, b, a], [b, c, a], [c, a, b]] {
            let result = place(order)
            #expect(Set(result.visible) == ["A", "C"])
            #expect(result.hidden == ["B"])
        }
    }

    @Test func emptyAndSingleScenes() {
        let empty = place([])
        #expect(empty.visible.isEmpty && empty.hidden.isEmpty && empty.clusters.isEmpty)
        #expect(place([view("only", 10, 10, priority: .defaultLow)]).visible == ["only"])
    }

    @Test func noneNeverCollides() {
        let result = place([view("A", 100, 100), view("B", 100, 100, mode: .none, priority: .defaultLow)])
        #expect(Set(result.visible) == ["A", "B"])
    }

    @Test func sameIdentifierViewsMergeIntoAClusterAtTheirMean() throws {
        let result = place([
            view("a", 100, 100, priority: .defaultLow, identifier: "bike"),
            view("b", 120, 110, priority: .defaultHigh, identifier: "bike"),
            view("c", 130, 100, priority: .defaultLow, identifier: "car"),  // collides, other identifier: stays apart
            view("d", 300, 300, identifier: "bike"),
        ])  // far away: stays single
        let cluster = try #require(result.clusters.first)
        #expect(result.clusters.count == 1)
        #expect(cluster.members == ["a", "b"])
        #expect(cluster.x == 110 && cluster.y == 105)
        #expect(cluster.clusteringIdentifier == "bike")
        // The cluster takes its members' highest priority (750), above c's 250, so c hides.
        #expect(cluster.visible)
        #expect(result.visible == ["d"])
        #expect(result.hidden == ["c"])
    }

    @Test func mergedClustersAreCheckedAgainAtTheirNewPlace() throws {
        // Three views in a row: a–b and b–c collide, a–c do not. a and b merge first (a tie, by index) into a 40 pt
        // circle at 115, which clears c's box (140…180): c stays a view of its own, and nothing overlaps.
        let chain = place([
            view("a", 100, 100, priority: .defaultLow, identifier: "x"),
            view("b", 130, 100, priority: .defaultLow, identifier: "x"),
            view("c", 160, 100, priority: .defaultLow, identifier: "x"),
        ])
        #expect(chain.clusters.map(\.members) == [["a", "b"]])
        #expect(chain.clusters[0].x == 115 && chain.clusters[0].y == 100)
        #expect(chain.visible == ["c"] && chain.clusters[0].visible)
        // With a larger cluster view the merged circle (radius 30 at 115) reaches c, so c joins it: at the mean, 130.
        let larger = place(
            [
                view("a", 100, 100, priority: .defaultLow, identifier: "x"),
                view("b", 130, 100, priority: .defaultLow, identifier: "x"),
                view("c", 160, 100, priority: .defaultLow, identifier: "x"),
            ], clusterView: ClusterViewDescription(width: 60, height: 60))
        #expect(larger.clusters.map(\.members) == [["a", "b", "c"]])
        #expect(larger.clusters[0].x == 130)
        // The cluster's view (a 40 pt circle at the mean) collides with a higher-priority view without identifier and
        // hides.
        let blocked = place([
            view("a", 100, 100, priority: .defaultLow, identifier: "x"),
            view("b", 120, 100, priority: .defaultLow, identifier: "x"),
            view("z", 110, 130, priority: .defaultHigh),
        ])
        #expect(blocked.clusters.count == 1 && !blocked.clusters[0].visible)
        #expect(blocked.visible == ["z"])
        // A cluster view with an offset: moved 60 up, it clears z.
        let moved = place(
            [
                view("a", 100, 100, priority: .defaultLow, identifier: "x"),
                view("b", 120, 100, priority: .defaultLow, identifier: "x"),
                view("z", 110, 130, priority: .defaultHigh),
            ], clusterView: ClusterViewDescription(centerOffset: [0, -60]))
        #expect(moved.clusters[0].visible)
    }

    @Test func clustersDoNotChainPastTheirSpread() {
        // a and b merge into an 80 pt circle at 115 that reaches c's box (140…180). All three would sit at 130 with
        // a 30 points away: allowed by a spread of 100, not by one of 25.
        let views = [
            view("a", 100, 100, identifier: "x"), view("b", 130, 100, identifier: "x"),
            view("c", 160, 100, identifier: "x"),
        ]
        let wide = place(views, clusterView: ClusterViewDescription(width: 80, height: 80, maximumSpread: 100))
        #expect(wide.clusters.map(\.members) == [["a", "b", "c"]] && wide.clusters[0].x == 130)
        let tight = place(views, clusterView: ClusterViewDescription(width: 80, height: 80, maximumSpread: 25))
        #expect(tight.clusters.map(\.members) == [["a", "b"]])
        // The two stay apart and collide, so priority decides: c is nearer the centre (200, 200) and shows.
        #expect(tight.visible == ["c"] && !tight.clusters[0].visible)

        // A long row of views 30 apart, with cluster views that grow with the count: every cluster keeps its members
        // within the spread, and every view is in exactly one entry.
        let row = (0..<40).map { view("v\($0)", 10 + Double($0) * 30, 200, identifier: "x") }
        let rule = ClusterRule(
            views: [
                (2, ClusterViewDescription(width: 40, height: 40)), (4, ClusterViewDescription(width: 70, height: 70)),
                (8, ClusterViewDescription(width: 100, height: 100)),
            ], maximumSpread: 90)
        let placement = PlacementEngine.place(
            row.map { PlacementView(x: $0.x, y: $0.y, width: 40, height: 40, clusteringGroup: 0) },
            width: 1200, height: 400, clusters: rule)
        var seen: [Int32] = []
        for index in placement.views.indices {
            let members = placement.members(of: index)
            seen += members
            let view = placement.views[index]
            #expect(members.allSatisfy { abs(row[Int($0)].x - view.x) <= 90 })
            #expect(abs(view.x - members.map { row[Int($0)].x }.reduce(0, +) / Double(members.count)) < 1e-9)
        }
        #expect(seen.sorted() == Array(0..<40))
        #expect(placement.views.count > 3)
    }

    @Test func mergedPositionsAreWeightedByTheViewsCounts() {
        // A view standing for 3 points at x = 100 and one for 1 point at x = 120 merge at (3·100 + 120) / 4 = 105,
        // sized by their total of 4.
        let views = [
            PlacementView(
                x: 100, y: 100, width: 30, height: 30, collisionMode: .circle, displayPriority: .defaultHigh,
                clusteringGroup: 0, weight: 3),
            PlacementView(
                x: 120, y: 100, width: 30, height: 30, collisionMode: .circle, displayPriority: .defaultLow,
                clusteringGroup: 0, weight: 1),
        ]
        let rule = ClusterRule(
            views: [
                (2, ClusterViewDescription(width: 30, height: 30)), (4, ClusterViewDescription(width: 50, height: 50)),
            ],
            maximumSpread: 100)
        let placement = PlacementEngine.place(views, width: 400, height: 400, clusters: rule)
        #expect(placement.views.count == 1)
        #expect(placement.views[0].x == 105 && placement.views[0].weight == 4 && placement.views[0].width == 50)
        #expect(placement.views[0].displayPriority == .defaultHigh)
        #expect(Array(placement.members(of: 0)) == [0, 1] && placement.visible == [true])
    }

    @Test func theReadmeExample() {
        let views = [
            PlacementView(
                x: 100, y: 100, width: 34, height: 34, collisionMode: .circle, displayPriority: .defaultHigh,
                clusteringGroup: 0, weight: 12),
            PlacementView(
                x: 120, y: 104, width: 28, height: 38, offsetY: -19, displayPriority: .defaultHigh, clusteringGroup: 0),
        ]
        let rule = ClusterRule(
            views: [
                (2, ClusterViewDescription(width: 34, height: 34)), (10, ClusterViewDescription(width: 40, height: 40)),
            ],
            maximumSpread: 140)
        let placement = PlacementEngine.place(views, width: 800, height: 600, clusters: rule)
        #expect(placement.views.count == 1 && placement.views[0].weight == 13 && placement.views[0].width == 40)
        #expect(abs(placement.views[0].x - 1320.0 / 13) < 1e-12)
        #expect(Array(placement.members(of: 0)) == [0, 1] && placement.visible == [true])
    }

    /// A copy the side edge cuts is left out where another copy a world away is not cut there, also when the top edge
    /// cuts both alike (a view on a world map's top edge); copies cut alike at the sides are kept.
    @Test func aCopyCutBySideEdgeGivesWayToAWholeOne() {
        let repeating = WorldRepeat(
            periodX: 200, periodY: 0, minX: -40, minY: -40, maxX: 290, maxY: 140, mapSize: (250, 100))
        // At x = 245 the right edge cuts 5 points off and the top edge 8; a world west, at 45, only the top edge cuts.
        let top = PlacementView(x: 245, y: 2, width: 20, height: 20)
        #expect(repeating.copiesOnMap(top) == [-1])
        // Cut alike (the map narrower than two worlds: 10 points off either side), both stay.
        let narrow = WorldRepeat(
            periodX: 200, periodY: 0, minX: -40, minY: -40, maxX: 250, maxY: 140, mapSize: (210, 100))
        #expect(narrow.copiesOnMap(PlacementView(x: 5, y: 50, width: 30, height: 30)) == [0, 1])
    }

    @Test func copiesOfARepeatedWorldCollideAndMergeAcrossTheSeam() {
        // A world 200 points wide on a 500-point viewport: a view at x = 195 and one at x = 10 are 15 apart across the
        // seam (10 + 200 = 210). They merge into one cluster at 202.5 (and its copies), shown on every copy.
        let repeating = WorldRepeat(periodX: 200, periodY: 0, minX: -20, minY: -20, maxX: 520, maxY: 120)
        let views = [
            PlacementView(
                x: 195, y: 50, width: 20, height: 20, collisionMode: .circle, displayPriority: .defaultHigh,
                clusteringGroup: 0),
            PlacementView(
                x: 10, y: 50, width: 20, height: 20, collisionMode: .circle, displayPriority: .defaultHigh,
                clusteringGroup: 0),
            PlacementView(x: 100, y: 50, width: 20, height: 20, collisionMode: .circle, displayPriority: .defaultLow),
        ]
        let placement = PlacementEngine.place(
            views, width: 500, height: 100,
            clusters: ClusterRule(views: [(2, ClusterViewDescription(width: 20, height: 20))], maximumSpread: 40),
            repeating: repeating)
        #expect(placement.views.count == 2)
        let cluster = placement.views.firstIndex { $0.weight == 2 } ?? -1
        #expect(cluster >= 0 && placement.views[cluster].x == 202.5)
        #expect(repeating.copies(x: 202.5, y: 50) == -1...1)
        #expect(placement.visible == [true, true])
        // A view is hidden where it collides with a copy of another: 255 lies 5 points from 50's copy at 250.
        let blocking = [
            PlacementView(x: 50, y: 50, width: 20, height: 20, displayPriority: .defaultHigh),
            PlacementView(x: 255, y: 50, width: 20, height: 20, displayPriority: .defaultLow),
        ]
        #expect(
            PlacementEngine.place(blocking, width: 500, height: 100, repeating: repeating).visible == [true, false])
    }

    @Test func diffsKeepClustersByTheirMembers() {
        let before: [ShownAnnotation] = [.annotation("a"), .cluster(["b", "c"]), .annotation("d")]
        let after: [ShownAnnotation] = [.cluster(["c", "b"]), .annotation("e"), .annotation("a")]
        let diff = AnnotationDiff(from: before, to: after)
        #expect(diff.keep == [.cluster(["b", "c"]), .annotation("a")])
        #expect(diff.add == [.annotation("e")])
        #expect(diff.remove == [.annotation("d")])
    }

    @Test func scenesDecodeWithPathsInErrors() {
        func error(_ json: String) -> String {
            do {
                _ = try JSONDecoder().decode(PlacementScene.self, from: Data(json.utf8))
                return ""
            } catch let decoding as DecodingError {
                let (path, message) = decoding.explained
                return "scene.json: \(path): \(message)"
            } catch { return "\(error)" }
        }
        let viewport = #""viewport": {"width": 400, "height": 300}"#
        #expect(
            error(#"{\#(viewport), "annotations": [{"id": "a", "x": 1, "y": 2, "width": 40, "height": 40}]}"#) == "")
        #expect(
            error(
                #"{\#(viewport), "annotations": [{"id": "a", "x": 1, "y": 2, "width": 40, "height": 40}, {"id": "b", "x": "far", "y": 2, "width": 40, "height": 40}]}"#
            )
                == "scene.json: annotations[1].x: expected a number")
        #expect(
            error(
                #"{\#(viewport), "annotations": [{"id": "a", "x": 1, "y": 2, "width": 40, "height": 40, "collisionMode": "square"}]}"#
            )
            .hasPrefix("scene.json: annotations[0].collisionMode:"))
        #expect(
            error(
                #"{\#(viewport), "annotations": [{"id": "a", "x": 1, "y": 2, "width": 40, "height": 40}, {"id": "a", "x": 1, "y": 2, "width": 40, "height": 40}]}"#
            )
                == "scene.json: annotations[1].id: expected a unique id; \"a\" is used before")
        #expect(
            error(#"{"viewport": {"width": -1, "height": 300}, "annotations": []}"#)
                == "scene.json: viewport.width: expected a width in points, > 0 and at most 1000000")
        #expect(
            error(#"{\#(viewport), "clusterView": {"maximumSpread": 0}, "annotations": []}"#)
                == "scene.json: clusterView.maximumSpread: expected a distance > 0 in points")
    }
}

@Suite struct PlacementOrderTests {
    @Test func manyDistinctPrioritiesStillOrderByPriorityThenDistance() {
        // 40 priority levels: the order falls back to a table; each view blocks the next lower one.
        let views = (0..<40).map { index in
            PlacementAnnotation(
                id: "v\(index)", x: 100 + Double(index) * 30, y: 100, width: 40, height: 40,
                displayPriority: DisplayPriority(Float(index * 10)))
        }
        let result = PlacementEngine.place(PlacementScene(width: 2000, height: 400, annotations: views.reversed()))
        // From the top (v39) down, every second view fits.
        #expect(result.visible == stride(from: 1, to: 40, by: 2).map { "v\($0)" }.reversed())
    }
}

/// The fast paths (grid blocks, radix order, required views filed first) against the rules written out plainly.
@Suite struct PlacementReferenceTests {
    func shape(_ annotation: PlacementAnnotation) -> CollisionGrid.Shape {
        let x = annotation.x + annotation.centerOffset[0], y = annotation.y + annotation.centerOffset[1]
        return annotation.collisionMode == .circle
            ? .circle(x: x, y: y, radius: min(annotation.width, annotation.height) / 2)
            : .box(
                minX: x - annotation.width / 2, minY: y - annotation.height / 2, maxX: x + annotation.width / 2,
                maxY: y + annotation.height / 2)
    }

    /// MapKit's rules by brute force: priority descending, then distance from the centre, then id; each view
    /// tested against every view shown before it.
    func reference(_ annotations: [PlacementAnnotation], width: Double, height: Double) -> Set<String> {
        func distance(_ annotation: PlacementAnnotation) -> Double {
            let dx = annotation.x + annotation.centerOffset[0] - width / 2,
                dy = annotation.y + annotation.centerOffset[1] - height / 2
            return dx * dx + dy * dy
        }
        let ordered = annotations.sorted {
            if $0.displayPriority != $1.displayPriority { return $0.displayPriority > $1.displayPriority }
            if distance($0) != distance($1) { return distance($0) < distance($1) }
            return $0.id < $1.id
        }
        var shown: [CollisionGrid.Shape] = [], visible: Set<String> = []
        for annotation in ordered {
            if annotation.collisionMode == .none {
                visible.insert(annotation.id)
                continue
            }
            let candidate = shape(annotation)
            if annotation.displayPriority >= .required || !shown.contains(where: { $0.intersects(candidate) }) {
                visible.insert(annotation.id)
                shown.append(candidate)
            }
        }
        return visible
    }

    @Test func randomScenesMatchTheRulesAndIgnoreInputOrder() {
        var random = SplitMix64(state: 2024)
        let mixed: [DisplayPriority] = [
            .required, DisplayPriority(1200), .defaultHigh, .defaultHigh, .defaultLow, DisplayPriority(500),
            DisplayPriority(999.5),
        ]
        let modes: [CollisionMode] = [.rectangle, .circle, .circle, .none]
        var checkedHidden = 0
        for scene in 0..<40 {
            // Every fourth scene has one priority and no required views, so that distance ties decide.
            let priorities = scene % 4 == 0 ? [DisplayPriority.defaultHigh] : mixed
            let count = 20 + random.below(400), width = Double(200 + random.below(600)),
                height = Double(200 + random.below(600))
            let annotations = (0..<count).map { index -> PlacementAnnotation in
                // Every third view sits on a coarse lattice mirrored about the centre, so exact distance ties occur.
                let onLattice = index % 3 == 0
                let x =
                    onLattice
                    ? width / 2 + Double(random.below(9) - 4) * 10 : Double(random.below(Int(width) * 4)) / 4 - 20
                let y =
                    onLattice
                    ? height / 2 + Double(random.below(9) - 4) * 10 : Double(random.below(Int(height) * 4)) / 4 - 20
                let size = Double(8 + random.below(48))
                return PlacementAnnotation(
                    id: "s\(scene)-\(random.below(1_000_000))-\(index)", x: x, y: y, width: size,
                    height: random.below(2) == 0 ? size : Double(8 + random.below(48)),
                    centerOffset: random.below(4) == 0
                        ? [Double(random.below(21) - 10), Double(-random.below(20))] : [0, 0],
                    collisionMode: modes[random.below(modes.count)],
                    displayPriority: priorities[random.below(priorities.count)])
            }
            let expected = reference(annotations, width: width, height: height)
            let result = PlacementEngine.place(PlacementScene(width: width, height: height, annotations: annotations))
            #expect(Set(result.visible) == expected, "scene \(scene)")
            #expect(result.visible.count + result.hidden.count == count)
            #expect(result.visible == annotations.map(\.id).filter(expected.contains), "visible ids keep input order")
            var shuffled = annotations
            for index in shuffled.indices.reversed() { shuffled.swapAt(index, random.below(index + 1)) }
            let again = PlacementEngine.place(PlacementScene(width: width, height: height, annotations: shuffled))
            #expect(Set(again.visible) == expected, "scene \(scene) shuffled")
            checkedHidden += result.hidden.count
        }
        #expect(checkedHidden > 1000)  // the scenes are crowded enough to test collisions at all
    }

    /// Cells of 16 on a 100×80 grid with an origin, shapes partly or wholly outside it and some huge; the same over
    /// an area too large for a table (every cell made as shapes need it), and with cells of 1, where the huge
    /// shapes span more cells than any is filed in.
    @Test(arguments: [(100.0, 1.0, 16.0), (1e9, 1.0, 16.0), (100, 1, 1), (100, 0.01, 16)])
    func theGridFindsWhatBruteForceFinds(width: Double, scale: Double, cellSize: Double) {
        var random = SplitMix64(state: 99)
        var grid = CollisionGrid(width: width, height: 80, originX: -10, originY: 5, cellSize: cellSize)
        var filed: [CollisionGrid.Shape] = []
        func randomShape() -> CollisionGrid.Shape {
            let x = (Double(random.below(1600)) / 10 - 40) * scale, y = (Double(random.below(1400)) / 10 - 30) * scale
            let size = (random.below(20) == 0 ? 200 : Double(random.below(300)) / 10) * scale
            return random.below(2) == 0
                ? .circle(x: x, y: y, radius: size / 2) : .box(minX: x, minY: y, maxX: x + size, maxY: y + size / 2)
        }
        for _ in 0..<300 {
            let shape = randomShape()
            grid.insert(shape)
            filed.append(shape)
        }
        var hits = 0
        for _ in 0..<500 {
            let query = randomShape()
            var found = Set<Int>()
            grid.forEachCollision(with: query) { found.insert($0) }
            let expected = Set(filed.indices.filter { filed[$0].intersects(query) })
            #expect(found == expected)
            #expect(grid.collides(query) == !expected.isEmpty)
            hits += expected.count
        }
        #expect(hits > 500)
        // Nonsense coordinates overlap nothing, and neither filing nor querying them traps.
        grid.insert(.box(minX: .nan, minY: 0, maxX: .infinity, maxY: .nan))
        #expect(!grid.collides(.circle(x: .nan, y: -.infinity, radius: 3)))
        // Touching is not overlapping, for every pair of kinds.
        #expect(
            !CollisionGrid.Shape.box(minX: 0, minY: 0, maxX: 10, maxY: 10).intersects(
                .box(minX: 10, minY: 0, maxX: 20, maxY: 10)))
        #expect(!CollisionGrid.Shape.circle(x: 0, y: 0, radius: 5).intersects(.circle(x: 10, y: 0, radius: 5)))
        #expect(
            !CollisionGrid.Shape.box(minX: 0, minY: 0, maxX: 10, maxY: 10).intersects(.circle(x: 15, y: 5, radius: 5)))
        #expect(
            CollisionGrid.Shape.box(minX: 0, minY: 0, maxX: 10, maxY: 10).intersects(.circle(x: 14.9, y: 5, radius: 5)))
    }
}
