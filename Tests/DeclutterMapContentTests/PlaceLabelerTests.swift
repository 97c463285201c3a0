import DeclutterClustering
import DeclutterGeometry
import DeclutterMapContent
import DeclutterPlacement
import DeclutterStyle
import Testing

/// Place names as the lowest-priority layer: kept clear of markers, of each other, of reserved corners and the edge.
@Suite struct PlaceLabelerTests {
    @Test func aNameOverAMarkerIsDroppedAndTheRestAreDrawn() {
        let marker: PlaceLabeler.Box = (x: 50, y: 20, width: 30, height: 40)
        var labeler = PlaceLabeler(width: 200, height: 100, obstacles: [marker])
        let names: [PlaceLabeler.Box] = [
            (x: 70, y: 30, width: 40, height: 14),  // its left end under the marker: dropped
            (x: 80, y: 30, width: 40, height: 14),  // touching the marker's edge only
            (x: 110, y: 35, width: 40, height: 14),  // over the name placed before: dropped
            (x: 170, y: 80, width: 40, height: 14),  // past the right edge, its text would be clipped: dropped
            (x: 10, y: 70, width: 40, height: 14),
        ]
        let drawn = names.map { labeler.place($0) }
        #expect(drawn == [false, true, false, false, true])
        #expect(labeler.placed.map(\.x) == [80, 10])
    }

    @Test func shownMarkersAndTheirCopiesAreObstaclesHiddenOnesAreNot() {
        let shown = MapAnnotation(
            kind: .marker, members: [0], categoryCounts: [1], coordinate: Coordinate(longitude: 0, latitude: 0),
            frame: (x: 10, y: 10, width: 20, height: 30), copies: [(x: 110, y: 10)], visible: true, priority: .required)
        let hidden = MapAnnotation(
            kind: .marker, members: [1], categoryCounts: [1], coordinate: Coordinate(longitude: 0, latitude: 0),
            frame: (x: 60, y: 10, width: 20, height: 30), visible: false, priority: .required)
        let attribution: PlaceLabeler.Box = (x: 150, y: 85, width: 50, height: 15)
        var labeler = PlaceLabeler(width: 200, height: 100, annotations: [shown, hidden], reserved: [attribution])
        #expect(labeler.obstacles.count == 3)
        let names: [PlaceLabeler.Box] = [
            (x: 0, y: 20, width: 15, height: 10),  // over the shown marker
            (x: 115, y: 20, width: 10, height: 10),  // over its copy one world to the right
            (x: 160, y: 80, width: 30, height: 10),  // over the attribution
            (x: 55, y: 20, width: 30, height: 10),  // where only a hidden view is
        ]
        let drawn = names.map { labeler.place($0) }
        #expect(drawn == [false, false, false, true])
    }
}
