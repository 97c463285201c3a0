import DeclutterGeometry
import Foundation
import Testing

/// The pitched camera's projection, on values worked by hand, and its inverse.
@Suite struct PerspectiveTests {
    @Test func theCameraStandsOneAndAHalfMapHeightsAway() {
        let tilt = Perspective(pitch: 60, width: 800, height: 600)
        #expect(abs(tilt.cameraDistance - 900) < 1e-9)
        #expect(!tilt.isFlat && Perspective(pitch: 0, width: 800, height: 600).isFlat)
    }

    @Test func rowsBelowTheCentreComeNearerAndRowsAboveRecede() {
        let tilt = Perspective(pitch: 60, width: 800, height: 600)
        // The centre stays.
        let center = tilt.point(flatX: 400, flatY: 300)
        #expect(abs(center.x - 400) < 1e-12 && abs(center.y - 300) < 1e-12)
        // 100 points below the centre: depth 900 − 100·sin 60° = 813.397; scale 900 / 813.397 = 1.106470; the row
        // lands at 300 + 100·cos 60°·1.106470 = 355.3235, and a point 100 to the right at 400 + 110.6470.
        let near = tilt.point(flatX: 500, flatY: 400)
        #expect(abs(tilt.depth(flatY: 400) - 813.3974596) < 1e-6)
        #expect(abs(near.x - 510.6470) < 1e-4 && abs(near.y - 355.3235) < 1e-4)
        // 100 points above: depth 986.603, scale 0.912221, row 300 − 45.6111.
        let far = tilt.point(flatX: 500, flatY: 200)
        #expect(abs(far.x - 491.2221) < 1e-4 && abs(far.y - 254.3889) < 1e-4)
        #expect(abs(tilt.scale(flatY: 200) - 0.9122214) < 1e-6)
    }

    @Test func scaleFallsLinearlyToTheHorizonAboveTheMap() {
        let tilt = Perspective(pitch: 60, width: 800, height: 600)
        #expect(tilt.scale(atY: 300) == 1)
        // 1 + (y − 300)·sin 60° / (900·cos 60°): 0.42265 at the top edge, 1.57735 at the bottom.
        #expect(abs(tilt.scale(atY: 0) - 0.4226497) < 1e-6)
        #expect(abs(tilt.scale(atY: 600) - 1.5773503) < 1e-6)
        // The horizon: 300 − 900·cos 60° / sin 60° = −219.615, above the map.
        #expect(abs(tilt.horizonY - -219.6152423) < 1e-6)
        #expect(tilt.flatPoint(x: 400, y: tilt.horizonY - 0.001) == nil)
        #expect(tilt.flatPoint(x: 0, y: -300) == nil)
        #expect(Perspective(pitch: 0, width: 800, height: 600).horizonY == -.infinity)
        // Half the centre's scale: 300 − 0.5·900·cos 60° / sin 60° = 40.19.
        #expect(abs(tilt.row(atScale: 0.5) - 40.1924) < 1e-4)
        #expect(abs(tilt.row(atScale: tilt.scale(atY: 123)) - 123) < 1e-9)
        // The top edge shows ground 2.366 map heights beyond the centre: 300 − 300·900 / (450 − 259.81).
        let top = tilt.flatPoint(x: 400, y: 0)
        #expect(top.map { abs($0.y - (300 - 1419.615)) < 1e-3 } == true)
    }

    @Test func flatPointUndoesPoint() {
        for pitch in [0.0, 15, 45, 60] {
            let tilt = Perspective(pitch: pitch, width: 640, height: 480)
            for x in stride(from: -100.0, through: 740, by: 70) {
                for y in stride(from: -50.0, through: 530, by: 58) {
                    guard let flat = tilt.flatPoint(x: x, y: y) else {
                        Issue.record("no ground at \(x), \(y) at pitch \(pitch)")
                        continue
                    }
                    let back = tilt.point(flatX: flat.x, flatY: flat.y)
                    #expect(abs(back.x - x) < 1e-9 && abs(back.y - y) < 1e-9)
                    #expect(abs(tilt.scale(flatY: flat.y) - tilt.scale(atY: y)) < 1e-12)
                }
            }
        }
    }

    @Test func theNearLimitIsAFiftiethOfTheHeightFromTheCamera() {
        let tilt = Perspective(pitch: 45, width: 800, height: 600)
        #expect(abs(tilt.depth(flatY: tilt.nearFlatY) - 12) < 1e-9)
        #expect(Perspective(pitch: 0, width: 800, height: 600).nearFlatY == .infinity)
    }

    @Test func aPitchedCameraProjectsCoordinatesAndBack() throws {
        let camera = try MapCamera(
            center: Coordinate(longitude: 2.35, latitude: 48.85), zoom: 12, bearing: 30, pitch: 45,
            width: 800, height: 600)
        let center = camera.point(for: camera.center)
        #expect(abs(center.x - 400) < 1e-9 && abs(center.y - 300) < 1e-9)
        for x in stride(from: 0.0, through: 800, by: 100) {
            for y in stride(from: 0.0, through: 600, by: 100) {
                let coordinate = camera.coordinate(atX: x, y: y), back = camera.point(for: coordinate)
                #expect(abs(back.x - x) < 1e-6 && abs(back.y - y) < 1e-6)
                let projected = camera.projection.point(for: coordinate)
                #expect(abs(projected.x - x) < 1e-6 && abs(projected.y - y) < 1e-6)
            }
        }
        // North of the centre recedes: at 45° a point 0.01° north is nearer the centre on screen than on the flat map.
        let flat = try MapCamera(center: camera.center, zoom: 12, bearing: 0, width: 800, height: 600)
        let pitched = try MapCamera(center: camera.center, zoom: 12, bearing: 0, pitch: 45, width: 800, height: 600)
        let north = Coordinate(longitude: 2.35, latitude: 48.86)
        #expect(pitched.point(for: north).y > flat.point(for: north).y)
        // The pitched map shows more ground than the flat one, most of it beyond the top edge: at 45° the top edge
        // shows the flat row 300 − 300·900 / (900·cos 45° − 300·sin 45°) = −336.40, the bottom edge the row 618.20.
        let flatBounds = flat.visibleWorldBounds, pitchedBounds = pitched.visibleWorldBounds, size = flat.worldSize
        #expect(abs((flatBounds.minY - pitchedBounds.minY) * size - 336.3961) < 1e-3)
        #expect(abs((pitchedBounds.maxY - flatBounds.maxY) * size - 18.1981) < 1e-3)
    }

    @Test func pitchIsCheckedAgainstMapboxsRange() {
        for pitch in [-1.0, 60.5, .nan] {
            #expect(
                throws: CameraError(
                    "pitch \(pitch.isNaN ? "nan" : (pitch == -1 ? "-1" : "60.5")) is out of range; expected 0…60 degrees"
                )
            ) {
                try MapCamera(
                    center: Coordinate(longitude: 0, latitude: 0), zoom: 1, pitch: pitch, width: 10, height: 10)
            }
        }
        #expect(
            (try? MapCamera(center: Coordinate(longitude: 0, latitude: 0), zoom: 1, pitch: 60, width: 10, height: 10))?
                .pitch == 60)
    }
}
