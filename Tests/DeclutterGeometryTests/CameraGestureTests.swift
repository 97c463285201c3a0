import DeclutterGeometry
import Foundation
import Testing

/// The gesture maths on values worked by hand: pans around the centre turn the bearing, pinches move zoom and pitch.
@Suite struct CameraGestureTests {
    let camera = try! MapCamera(
        center: Coordinate(longitude: 2.35, latitude: 48.85), zoom: 3, pitch: 10, width: 800, height: 600)
    let gesture = try! CameraGesture()

    @Test func aClockwiseQuarterTurnIsMinusNinetyDegrees() throws {
        // Right of the centre (400, 300) to below it: clockwise on a screen whose y grows downward. v1 = (100, 0),
        // v2 = (0, 100): atan2(0, 100) − atan2(100, 0) = 0 − π/2, so −90°; the bearing falls and the map turns with
        // the finger.
        #expect(CameraGesture.rotation(location: (500, 300), translation: (-100, 100), center: (400, 300)) == -90)
        let turned = try gesture.applying(
            .pan(locationX: 500, locationY: 300, translationX: -100, translationY: 100), to: camera)
        #expect(turned.bearing == 270)
        #expect(turned.zoom == 3 && turned.pitch == 10 && turned.center == camera.center)
        // Below the centre to right of it: anticlockwise, +90°.
        #expect(CameraGesture.rotation(location: (400, 400), translation: (100, -100), center: (400, 300)) == 90)
    }

    @Test func fourStepsOfAnEighthOfAQuarterEach() throws {
        // Points 100 from the centre at seed angles α = atan2(dx, dy) of 0°, 22.5°, 45°, 67.5°, 90°: (100 sin α, 100
        // cos α).
        let points = (0...4).map { step -> (x: Double, y: Double) in
            let angle = Double(step) * 22.5 * Double.pi / 180
            return (400 + 100 * sin(angle), 300 + 100 * cos(angle))
        }
        let steps = (0..<4).map { step in
            CameraGesture.Step.pan(
                locationX: points[step].x, locationY: points[step].y,
                translationX: points[step + 1].x - points[step].x, translationY: points[step + 1].y - points[step].y)
        }
        let cameras = try gesture.cameras(from: camera, steps: steps)
        #expect(cameras.count == 4)
        for (index, expected) in [22.5, 45, 67.5, 90].enumerated() {
            #expect(abs(cameras[index].bearing - expected) < 1e-9)
        }
    }

    @Test func aStepAcrossTheAngleSeamIsTheShortWayRound() {
        // Above the centre, from 1 point left to 1 point right: atan2 goes from −179.43° to +179.43°; the step is
        // −2·atan(1/100) = −1.145877° (clockwise), not +358.85°.
        let step = CameraGesture.rotation(location: (399, 200), translation: (2, 0), center: (400, 300))
        #expect(abs(step - -1.1458774) < 1e-6)
    }

    @Test func aTouchAtTheCentreDoesNotTurn() throws {
        #expect(CameraGesture.rotation(location: (400, 300), translation: (50, 20), center: (400, 300)) == 0)
        #expect(CameraGesture.rotation(location: (350, 280), translation: (50, 20), center: (400, 300)) == 0)
        let same = try gesture.applying(
            .pan(locationX: 400, locationY: 300, translationX: 50, translationY: 20), to: camera)
        #expect(same.bearing == 0)
    }

    @Test func aPinchStepMovesZoomAndPitchTogether() throws {
        // 1.2: +0.2 zoom and +0.2 × 60 / 22 = 0.545454… degrees of pitch over the camera's ranges.
        let pinched = try gesture.applying(.pinch(scale: 1.2), to: camera)
        #expect(abs(pinched.zoom - 3.2) < 1e-12)
        #expect(abs(pinched.pitch - (10 + 0.2 * 60 / 22)) < 1e-12)
        #expect(abs(gesture.pinch(scale: 1.2).pitch - 0.5454545454) < 1e-9)
        // Over zooms 2…12: +0.2 × 60 / 10 = 1.2 degrees.
        let narrow = try CameraGesture(zoomRange: 2...12)
        #expect(abs(try narrow.applying(.pinch(scale: 1.2), to: camera).pitch - 11.2) < 1e-12)
        // Pinching in lowers both.
        let out = try gesture.applying(.pinch(scale: 0.8), to: camera)
        #expect(abs(out.zoom - 2.8) < 1e-12 && abs(out.pitch - (10 - 0.2 * 60 / 22)) < 1e-12)
    }

    @Test func pinchesClampAtBothEnds() throws {
        let high = try MapCamera(center: camera.center, zoom: 21.9, pitch: 59.9, width: 800, height: 600)
        let top = try gesture.applying(.pinch(scale: 1.5), to: high)
        #expect(top.zoom == 22 && top.pitch == 60)
        let low = try MapCamera(center: camera.center, zoom: 0.1, pitch: 0.1, width: 800, height: 600)
        let bottom = try gesture.applying(.pinch(scale: 0.5), to: low)
        #expect(bottom.zoom == 0 && bottom.pitch == 0)
        // Each clamps on its own: at the top zoom a pinch still tilts.
        let tilted = try gesture.applying(
            .pinch(scale: 1.22), to: try MapCamera(center: camera.center, zoom: 22, width: 800, height: 600))
        #expect(tilted.zoom == 22 && abs(tilted.pitch - 0.6) < 1e-12)
    }

    @Test func badStepsAndRangesAreErrors() throws {
        #expect(throws: CameraError.self) { try gesture.applying(.pinch(scale: 0), to: camera) }
        #expect(throws: CameraError.self) {
            try gesture.applying(.pan(locationX: .nan, locationY: 0, translationX: 0, translationY: 0), to: camera)
        }
        #expect(throws: CameraError.self) { try CameraGesture(zoomRange: 3...3) }
        #expect(throws: CameraError.self) { try CameraGesture(pitchRange: 0...70) }
        do {
            _ = try gesture.cameras(from: camera, steps: [.pinch(scale: 1.1), .pinch(scale: -1)])
            Issue.record("a negative scale was accepted")
        } catch let error as CameraError {
            #expect(error.message == "step 2: pinch scale -1 is not valid; expected a number above 0 (1: no change)")
        }
    }
}

/// Gesture steps read from JSON, and a camera tilted so that the flat map stays on it.
@Suite struct CameraGestureJSONTests {
    @Test func stepsReadFromJSON() throws {
        let steps = try CameraGesture.Step.steps(
            json: Data(#"[{"pinch": 1.2}, {"pan": {"location": [300, 150], "translation": [-100, 100]}}]"#.utf8))
        #expect(
            steps == [.pinch(scale: 1.2), .pan(locationX: 300, locationY: 150, translationX: -100, translationY: 100)])
        func message(_ json: String) -> String? {
            do {
                _ = try CameraGesture.Step.steps(json: Data(json.utf8))
                return nil
            } catch let error as CameraError {
                return error.message
            } catch {
                return "\(error)"
            }
        }
        #expect(message("[]") == "0 steps; expected 1…64")
        #expect(message(#"[{"pinch": 1, "pan": {}}]"#) == #"step 1: expected an object with one key, "pinch" or "pan""#)
        #expect(
            message(#"[{"pinch": 1}, {"pan": {"location": [1, 2], "translation": [0, "x"]}}]"#)
                == #"step 2: "pan.translation" must be two numbers [x, y] in map points"#)
        #expect(
            message(#"[{"pinch": "big"}]"#)
                == #"step 1: "pinch" must be a number above 0 (the scale since the last step; 1: no change), got "big""#
        )
    }

    @Test func aTiltedFitUsesTheMapAndKeepsTheDataOnIt() throws {
        // Europe's airports' outline, roughly: Greenland to the Caucasus, Lapland to Morocco.
        let coordinates = [
            (-23.8, 65.0), (-8.6, 71.0), (27.8, 71.0), (45.0, 43.0), (35.0, 34.0), (-5.0, 34.0), (-17.0, 28.0),
        ]
        let outline = coordinates.map {
            ConvexHull.Point(x: WebMercator.x(longitude: $0.0), y: WebMercator.y(latitude: $0.1))
        }
        var bounds = WorldBounds()
        for point in outline { bounds.include(x: point.x, y: point.y) }
        let padding = EdgePadding(all: 30)
        let flat = try MapCamera.fitting(bounds, width: 800, height: 600, padding: padding, bearing: 20, maxZoom: 22)
        for pitch in [30.0, 45, 60] {
            let tilted = try MapCamera.fitting(
                bounds, width: 800, height: 600, padding: padding, bearing: 20, pitch: pitch, outline: outline,
                maxZoom: 22)
            #expect(tilted.pitch == pitch && tilted.bearing == 20)
            let points = outline.map { tilted.point(worldX: $0.x, worldY: $0.y) }
            let minX = points.map(\.x).min() ?? 0, maxX = points.map(\.x).max() ?? 0
            let minY = points.map(\.y).min() ?? 0, maxY = points.map(\.y).max() ?? 0
            // Every point inside the padded area, which the outline fills across or down, centred in it.
            #expect(
                minX >= 30 - 0.01 && maxX <= 770 + 0.01 && minY >= 30 - 0.01 && maxY <= 570 + 0.01, "pitch \(pitch)")
            #expect(abs(minX - 30) < 0.01 || abs(minY - 30) < 0.01, "pitch \(pitch)")
            #expect(abs((minX + maxX) / 2 - 400) < 0.01 && abs((minY + maxY) / 2 - 300) < 0.01, "pitch \(pitch)")
            // Closer than the flat fit zoomed out by the bottom edge's enlargement, which kept the flat map on it.
            let enlargement = Perspective(pitch: pitch, width: 800, height: 600).scale(flatY: 600)
            #expect(tilted.zoom > flat.zoom - log2(enlargement) + 0.1, "pitch \(pitch)")
        }
        #expect(throws: CameraError.self) { try MapCamera.fitting(bounds, width: 800, height: 600, pitch: 75) }
    }
}
