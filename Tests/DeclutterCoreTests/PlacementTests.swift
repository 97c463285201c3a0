import DeclutterCore
import Foundation
import Testing

@Suite struct PlacementTests {
    func view(_ id: String, _ x: Double, _ y: Double, mode: CollisionMode = .rectangle, priority: DisplayPriority = .defaultHigh,
              offset: [Double] = [0, 0], identifier: String? = nil, size: Double = 40) -> PlacementAnnotation {
        PlacementAnnotation(id: id, x: x, y: y, width: size, height: size, centerOffset: offset, collisionMode: mode,
                            displayPriority: priority, clusteringIdentifier: identifier)
    }

    func place(_ annotations: [PlacementAnnotation], width: Double = 400, height: Double = 400,
               clusterView: ClusterViewDescription = ClusterViewDescription()) -> PlacementEngine.Result {
        PlacementEngine.place(PlacementScene(width: width, height: height, clusterView: clusterView, annotations: annotations))
    }

    @Test func rectangleAgainstCircleOnADiagonal() {
        // A's box ends at (120, 120). A circle of radius 20 centred at (135, 135) is 21.2 from that corner: clear.
        #expect(place([view("A", 100, 100), view("B", 135, 135, mode: .circle, priority: .defaultLow)]).hidden == [])
        // At (132, 132) the corner is 17.0 away: they collide and the lower priority hides.
        #expect(place([view("A", 100, 100), view("B", 132, 132, mode: .circle, priority: .defaultLow)]).hidden == ["B"])
        // Two boxes at (135, 135) overlap, where the circle did not.
        #expect(place([view("A", 100, 100), view("B", 135, 135, priority: .defaultLow)]).hidden == ["B"])
    }

    @Test func centerOffsetsMoveTheView() {
        // B's point is 50 below A's, clear of it; an offset of -30 lifts its view into A.
        #expect(place([view("A", 100, 100), view("B", 100, 150, priority: .defaultLow)]).hidden == [])
        #expect(place([view("A", 100, 100), view("B", 100, 150, priority: .defaultLow, offset: [0, -30])]).hidden == ["B"])
    }

    @Test func tiesHideTheViewFartherFromTheCentre() {
        // The viewport centre is (200, 200): A at 190 is nearer than B at 220, whatever the input order.
        #expect(place([view("A", 190, 200), view("B", 220, 200)]).hidden == ["B"])
        #expect(place([view("B", 220, 200), view("A", 190, 200)]).hidden == ["B"])
        // Equally far: the rules leave a tie, broken by id.
        #expect(place([view("Z", 185, 200), view("Y", 215, 200)]).hidden == ["Z"])
    }

    @Test func requiredViewsAreAlwaysShown() {
        let result = place([view("A", 100, 100, priority: .required), view("B", 110, 100, priority: .required),
                            view("C", 120, 100, priority: DisplayPriority(999))])
        #expect(result.visible == ["A", "B"])
        #expect(result.hidden == ["C"])
    }

    @Test func chainsFollowPriorityNotInputOrder() {
        // A–B and B–C overlap, A–C do not. By priority: A shows, B hides, so C (lowest) shows.
        let a = view("A", 100, 100, priority: DisplayPriority(750)), b = view("B", 130, 100, priority: DisplayPriority(500))
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
        let result = place([view("a", 100, 100, priority: .defaultLow, identifier: "bike"),
                            view("b", 120, 110, priority: .defaultHigh, identifier: "bike"),
                            view("c", 130, 100, priority: .defaultLow, identifier: "car"),   // collides, other identifier: stays apart
                            view("d", 300, 300, identifier: "bike")])   // far away: stays single
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

    @Test func clustersGrowUntilNothingCollidesAndYieldToHigherViews() throws {
        // Three views in a row: a–b and b–c collide; all three end up in one cluster at their mean (130, 100).
        let chain = place([view("a", 100, 100, priority: .defaultLow, identifier: "x"), view("b", 130, 100, priority: .defaultLow, identifier: "x"),
                           view("c", 160, 100, priority: .defaultLow, identifier: "x")])
        #expect(chain.clusters.map(\.members) == [["a", "b", "c"]])
        #expect(chain.clusters[0].x == 130)
        // The cluster's view (a 40 pt circle at the mean) collides with a higher-priority view without identifier and hides.
        let blocked = place([view("a", 100, 100, priority: .defaultLow, identifier: "x"), view("b", 120, 100, priority: .defaultLow, identifier: "x"),
                             view("z", 110, 130, priority: .defaultHigh)])
        #expect(blocked.clusters.count == 1 && !blocked.clusters[0].visible)
        #expect(blocked.visible == ["z"])
        // A cluster view with an offset: moved 60 up, it clears z.
        let moved = place([view("a", 100, 100, priority: .defaultLow, identifier: "x"), view("b", 120, 100, priority: .defaultLow, identifier: "x"),
                           view("z", 110, 130, priority: .defaultHigh)], clusterView: ClusterViewDescription(centerOffset: [0, -60]))
        #expect(moved.clusters[0].visible)
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
                return StyleError(file: "scene.json", decodingError: decoding).description
            } catch { return "\(error)" }
        }
        let viewport = #""viewport": {"width": 400, "height": 300}"#
        #expect(error(#"{\#(viewport), "annotations": [{"id": "a", "x": 1, "y": 2, "width": 40, "height": 40}]}"#) == "")
        #expect(error(#"{\#(viewport), "annotations": [{"id": "a", "x": 1, "y": 2, "width": 40, "height": 40}, {"id": "b", "x": "far", "y": 2, "width": 40, "height": 40}]}"#)
            == "scene.json: annotations[1].x: expected a number")
        #expect(error(#"{\#(viewport), "annotations": [{"id": "a", "x": 1, "y": 2, "width": 40, "height": 40, "collisionMode": "square"}]}"#)
            .hasPrefix("scene.json: annotations[0].collisionMode:"))
        #expect(error(#"{\#(viewport), "annotations": [{"id": "a", "x": 1, "y": 2, "width": 40, "height": 40}, {"id": "a", "x": 1, "y": 2, "width": 40, "height": 40}]}"#)
            == "scene.json: annotations[1].id: expected a unique id; \"a\" is used before")
        #expect(error(#"{"viewport": {"width": -1, "height": 300}, "annotations": []}"#) == "scene.json: viewport.width: expected a width in points, > 0")
    }
}

@Suite struct PlacementOrderTests {
    @Test func manyDistinctPrioritiesStillOrderByPriorityThenDistance() {
        // 40 priority levels: the order falls back to a table; each view blocks the next lower one.
        let views = (0..<40).map { index in
            PlacementAnnotation(id: "v\(index)", x: 100 + Double(index) * 30, y: 100, width: 40, height: 40,
                                displayPriority: DisplayPriority(Float(index * 10)))
        }
        let result = PlacementEngine.place(PlacementScene(width: 2000, height: 400, annotations: views.reversed()))
        // From the top (v39) down, every second view fits.
        #expect(result.visible == stride(from: 1, to: 40, by: 2).map { "v\($0)" }.reversed())
    }
}
