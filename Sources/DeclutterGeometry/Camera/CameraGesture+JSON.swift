import DeclutterSupport
import Foundation

extension CameraGesture.Step {
    /// The most steps a list may hold: a strip of frames is drawn one map per step.
    public static let maximumCount = 64

    /// Reads a list of gesture steps from JSON: `[{"pinch": 1.2}, {"pan": {"location": [x, y], "translation": [dx,
    /// dy]}}]`, each step one object with one key, `pinch` (the scale since the last step, above 0) or `pan` (the
    /// touch's location and its translation since the last step, in map points).
    ///
    /// - Throws: ``CameraError`` naming the step (from 1) and the field at fault and what was expected.
    public static func steps(json data: Data) throws -> [CameraGesture.Step] {
        let root: JSONValue
        do {
            root = try JSONParser.parse(data)
        } catch {
            throw CameraError("not JSON: \(error)")
        }
        guard let list = root.array else {
            throw CameraError("expected a JSON list of steps such as [{\"pinch\": 1.2}]")
        }
        guard !list.isEmpty, list.count <= maximumCount else {
            throw CameraError("\(list.count) steps; expected 1…\(maximumCount)")
        }
        return try list.enumerated().map { index, value in try step(value, number: index + 1) }
    }

    /// One step of the list, numbered from 1 in messages.
    static func step(_ value: JSONValue, number: Int) throws -> CameraGesture.Step {
        let name = "step \(number)"
        guard let object = value.object, object.keys.count == 1, let key = object.keys.first, let body = object[key]
        else {
            throw CameraError("\(name): expected an object with one key, \"pinch\" or \"pan\"")
        }
        switch key {
        case "pinch":
            guard let scale = body.number, scale.isFinite, scale > 0 else {
                throw CameraError(
                    "\(name): \"pinch\" must be a number above 0 (the scale since the last step; 1: no change), got \(body.jsonText.prefix(40))"
                )
            }
            return .pinch(scale: scale)
        case "pan":
            guard let pan = body.object else {
                throw CameraError(
                    "\(name): \"pan\" must be an object {\"location\": [x, y], \"translation\": [dx, dy]}")
            }
            for field in pan.keys where field != "location" && field != "translation" {
                throw CameraError("\(name): unknown key \"pan.\(field.prefix(40))\"; expected location and translation")
            }
            func pair(_ field: String) throws -> (Double, Double) {
                guard let numbers = pan[field]?.array?.compactMap(\.number), numbers.count == 2,
                    pan[field]?.array?.count == 2,
                    numbers.allSatisfy(\.isFinite)
                else {
                    throw CameraError("\(name): \"pan.\(field)\" must be two numbers [x, y] in map points")
                }
                return (numbers[0], numbers[1])
            }
            let location = try pair("location"), translation = try pair("translation")
            return .pan(
                locationX: location.0, locationY: location.1, translationX: translation.0, translationY: translation.1)
        default:
            throw CameraError("\(name): unknown step \"\(key.prefix(40))\"; expected \"pinch\" or \"pan\"")
        }
    }
}
