import DeclutterClustering
import DeclutterGeometry
import DeclutterInput
import DeclutterStyle
import DeclutterSupport
import Foundation

/// Reads a decoded overlay segment (`pin-s+f00(1,2),path-5(…),geojson({…})`) into overlays, keeping the counts the
/// limits bound as it goes so that no list grows past them.
///
/// Commas separate overlays and also occur inside parentheses; a pin's or a path's parentheses hold no nested ones
/// (an encoded polyline's alphabet is ASCII 63…126), and a GeoJSON overlay is scanned as JSON, strings included, so
/// that a `)` or `,` inside a property does not end it.
struct OverlayListParser {
    let bytes: [UInt8]
    let limits: StaticMapLimits
    /// Pins and GeoJSON positions so far.
    private(set) var points = 0
    /// Path vertices so far.
    private(set) var pathVertices = 0

    init(bytes: [UInt8], limits: StaticMapLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    /// Every overlay in order.
    mutating func parse() throws -> [StaticMapOverlay] {
        var overlays: [StaticMapOverlay] = []
        var position = 0
        while true {
            guard overlays.count < limits.maximumOverlays else {
                throw StaticMapRequestError(
                    field: "overlay", message: "more than \(limits.maximumOverlays) overlays", status: .contentTooLarge)
            }
            let number = overlays.count + 1
            guard position < bytes.count else {
                throw error(number, position == 0 ? "the overlay list is empty" : "the overlay list ends with a comma")
            }
            let (overlay, end) = try overlay(at: position, number: number)
            overlays.append(overlay)
            guard end < bytes.count else { return overlays }
            guard bytes[end] == UInt8(ascii: ",") else {
                throw error(
                    number,
                    "expected ',' or the end of the list after it, got \"\(text(end..<min(end + 12, bytes.count)))\"")
            }
            position = end + 1
        }
    }

    private mutating func overlay(at start: Int, number: Int) throws -> (StaticMapOverlay, Int) {
        if starts(with: "url-", at: start) {
            throw StaticMapRequestError(
                field: "overlay",
                message: "overlay \(number): custom marker images are not fetched; use pin-s or pin-l",
                status: .unprocessable)
        }
        if starts(with: "geojson(", at: start) {
            var scanner = GeoJSONOverlayScanner(bytes: bytes, start: start + 8, limits: limits, pointsBefore: points)
            let end: Int
            do { end = try scanner.scan() } catch let message as GeoJSONOverlayScanner.Failure {
                throw StaticMapRequestError(
                    field: "overlay", message: "overlay \(number): \(message.message)", status: message.status)
            }
            points += scanner.positions
            guard end < bytes.count, bytes[end] == UInt8(ascii: ")") else {
                throw error(number, "missing ')' after the GeoJSON")
            }
            let value: JSONValue
            do { value = try JSONParser.parse(Data(bytes[(start + 8)..<end])) } catch let syntax as JSONSyntaxError {
                throw error(number, "GeoJSON column \(syntax.column): \(syntax.message)")
            }
            if let problem = GeoJSONOverlayScanner.problem(in: value) {
                throw StaticMapRequestError(
                    field: "overlay", message: "overlay \(number): \(problem.message)", status: problem.status)
            }
            return (.geoJSON(value), end + 1)
        }
        guard let open = bytes[start...].firstIndex(where: { $0 == UInt8(ascii: "(") || $0 == UInt8(ascii: ",") }),
            bytes[open] == UInt8(ascii: "(")
        else {
            let name = text(start..<min(start + 24, bytes.count))
            throw error(
                number,
                "\"\(name)\" has no '(' with its coordinates; expected geojson(…), pin-s-…(lon,lat), pin-l-…(lon,lat) or path-…(polyline)"
            )
        }
        guard let close = bytes[open...].firstIndex(of: UInt8(ascii: ")")) else {
            throw error(number, "missing ')' after \"\(text(start..<min(open + 24, bytes.count)))\"")
        }
        let name = text(start..<open), argument = text((open + 1)..<close)
        if name.hasPrefix("pin-") {
            return (try pin(name, argument, number: number), close + 1)
        }
        if name.hasPrefix("path-") {
            return (.path(try path(name, argument, number: number)), close + 1)
        }
        throw error(number, "\"\(name)\" is not an overlay; expected geojson(…), pin-s-…, pin-l-… or path-…")
    }

    // MARK: Pins

    private mutating func pin(_ name: String, _ argument: String, number: Int) throws -> StaticMapOverlay {
        var rest = Substring(name.dropFirst(4))
        guard let size = rest.first.flatMap({ StaticMapOverlay.PinSize(rawValue: String($0)) }) else {
            throw error(number, "\"\(name)\" is not a pin; expected pin-s or pin-l")
        }
        rest = rest.dropFirst()
        var label: StaticMapOverlay.PinLabel?
        var color: RGBAColor?
        if rest.first == "-" {
            let labelText = rest.dropFirst().prefix { $0 != "+" }
            label = try pinLabel(labelText, number: number)
            rest = rest.dropFirst(1 + labelText.count)
        }
        if rest.first == "+" {
            color = try self.color(rest.dropFirst(), number: number)
            rest = ""
        }
        guard rest.isEmpty else {
            throw error(
                number, "\"\(name)\" is not a pin; expected pin-s or pin-l, then -label and +color, each optional")
        }
        guard points < limits.maximumPoints else { throw tooManyPoints() }
        points += 1
        return .pin(size, label: label, color: color, coordinate: try coordinate(argument, number: number))
    }

    private func pinLabel(_ text: Substring, number: Int) throws -> StaticMapOverlay.PinLabel {
        let maximum = StaticMapOverlay.PinLabel.maximumIconNameLength
        let expected = "expected a letter, a number 0…99 or an icon name"
        guard !text.isEmpty else { throw error(number, "the pin's label is empty; \(expected)") }
        guard text.count <= maximum else {
            throw StaticMapRequestError(
                field: "overlay",
                message:
                    "overlay \(number): the pin's label is \(text.count) characters long; \(expected) of at most \(maximum) characters",
                status: .unprocessable)
        }
        if text.count > 2, text.allSatisfy({ $0.isASCII && $0.isNumber }) {
            throw StaticMapRequestError(
                field: "overlay", message: "overlay \(number): label \(text) is out of range; \(expected)",
                status: .unprocessable)
        }
        guard let label = StaticMapOverlay.PinLabel(text) else {
            throw error(
                number,
                "label \"\(text)\" is not a letter, a number 0…99 or an icon name (lowercase letters, digits and hyphens)"
            )
        }
        return label
    }

    private func coordinate(_ text: String, number: Int) throws -> Coordinate {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let longitude = StaticMapRequest.number(parts[0]),
            let latitude = StaticMapRequest.number(parts[1])
        else {
            throw error(number, "\"(\(text))\" is not a coordinate; expected (lon,lat)")
        }
        guard (-180...180).contains(longitude) else {
            throw StaticMapRequestError(
                field: "overlay",
                message: "overlay \(number): longitude \(longitude.messageText) is out of range; expected -180…180",
                status: .unprocessable)
        }
        guard StaticMapCamera.latitudeRange.contains(latitude) else {
            throw StaticMapRequestError(
                field: "overlay",
                message:
                    "overlay \(number): latitude \(latitude.messageText) is out of range; expected -85.0511…85.0511",
                status: .unprocessable)
        }
        return Coordinate(longitude: longitude, latitude: latitude)
    }

    private func color(_ text: Substring, number: Int) throws -> RGBAColor {
        guard text.count == 3 || text.count == 6, text.allSatisfy(\.isHexDigit), let color = RGBAColor(hex: "#" + text)
        else {
            throw error(number, "colour \"\(text)\" is not 3 or 6 hexadecimal digits")
        }
        return color
    }

    // MARK: Paths

    private mutating func path(_ name: String, _ argument: String, number: Int) throws -> StaticMapOverlay.Path {
        let parts = name.dropFirst(5).split(separator: "+", omittingEmptySubsequences: false)
        guard parts.count <= 3 else {
            throw error(
                number,
                "\"\(name)\" has \(parts.count - 1) colours; expected path-{strokeWidth}+{strokeColor}-{strokeOpacity}+{fillColor}-{fillOpacity}"
            )
        }
        guard let width = StaticMapRequest.number(parts[0]) else {
            throw error(number, "stroke width \"\(parts[0])\" is not a number")
        }
        guard width > 0, width <= StaticMapOverlay.Path.maximumStrokeWidth else {
            throw StaticMapRequestError(
                field: "overlay",
                message:
                    "overlay \(number): stroke width \(width.messageText) is out of range; expected above 0 and at most \(StaticMapOverlay.Path.maximumStrokeWidth.messageText)",
                status: .unprocessable)
        }
        var paints: [(RGBAColor, Double?)] = []
        for part in parts.dropFirst() {
            let pieces = part.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            let color = try color(pieces[0], number: number)
            var opacity: Double?
            if pieces.count == 2 {
                guard let value = StaticMapRequest.number(pieces[1]) else {
                    throw error(number, "opacity \"\(pieces[1])\" is not a number")
                }
                guard (0...1).contains(value) else {
                    throw StaticMapRequestError(
                        field: "overlay",
                        message: "overlay \(number): opacity \(value.messageText) is out of range; expected 0…1",
                        status: .unprocessable)
                }
                opacity = value
            }
            paints.append((color, opacity))
        }
        // Each vertex is two values, and each value ends with a byte in 63…94; counting those bounds the vertices
        // before any is decoded.
        let values = argument.utf8.reduce(0) { $0 + ((63...94).contains($1) ? 1 : 0) }
        let vertices = (values + 1) / 2
        guard pathVertices + vertices <= limits.maximumPathVertices else {
            throw StaticMapRequestError(
                field: "overlay",
                message: "overlay \(number): paths have more than \(limits.maximumPathVertices) vertices",
                status: .contentTooLarge)
        }
        let coordinates: [Coordinate]
        do { coordinates = try Polyline.decode(argument, precision: 5) } catch let polyline as PolylineError {
            throw error(number, "polyline: \(polyline.message)")
        }
        guard coordinates.count >= 2 else {
            throw StaticMapRequestError(
                field: "overlay",
                message: "overlay \(number): a path needs at least 2 vertices, got \(coordinates.count)",
                status: .unprocessable)
        }
        pathVertices += coordinates.count
        return StaticMapOverlay.Path(
            strokeWidth: width, strokeColor: paints.first?.0, strokeOpacity: paints.first?.1,
            fillColor: paints.count > 1 ? paints[1].0 : nil, fillOpacity: paints.count > 1 ? paints[1].1 : nil,
            coordinates: coordinates)
    }

    // MARK: Helpers

    private func tooManyPoints() -> StaticMapRequestError {
        StaticMapRequestError(
            field: "overlay", message: "more than \(limits.maximumPoints) points", status: .contentTooLarge)
    }

    private func starts(with prefix: String, at position: Int) -> Bool {
        bytes[position...].starts(with: prefix.utf8)
    }

    private func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    private func error(_ number: Int, _ message: String) -> StaticMapRequestError {
        StaticMapRequestError(field: "overlay", message: "overlay \(number): \(message)")
    }
}
