import DeclutterGeometry
import DeclutterMapContent
import DeclutterPlacement
import DeclutterStyle
import Foundation
import Testing

@testable import DeclutterRender

/// The embedded basemap puts coastal and island towns on land: Natural Earth's own populated places (public
/// domain) in Greece, Norway and Japan are on land, or within 2 px of it, at zoom 6 and 7.
@Suite struct BasemapTruthTests {
    static let places: [(name: String, latitude: Double, longitude: Double)] = [
        ("Rodos", 36.4412, 28.2225), ("Iraklio", 35.3250, 25.1305), ("Ermoupoli", 37.4504, 24.9333),
        ("Kos", 36.8937, 27.2888), ("Mitilini", 39.1104, 26.5546), ("Hios", 38.3681, 26.1358),
        ("Kerkira", 39.6154, 19.9147),
        ("Tromsø", 69.6351, 18.9920), ("Bodø", 67.2468, 14.3990), ("Hammerfest", 70.6613, 23.6880),
        ("Svolvær", 68.2333, 14.5667), ("Harstad", 68.7879, 16.5156), ("Ålesund", 62.5454, 6.3880),
        ("Naha", 26.2072, 127.6730), ("Sasebo", 33.1631, 129.7177), ("Otaru", 43.1887, 140.9783),
    ]

    @Test(arguments: [6.0, 7.0])
    func coastalTownsAreOnLand(zoom: Double) throws {
        let style = try bundledStyle("default")
        let renderer = try StaticMapRenderer(style: style)
        let land = style.map.land.fill.map { [$0.red, $0.green, $0.blue].map { UInt8(($0 * 255).rounded()) } + [255] }
        var offLand: [String] = []
        for place in Self.places {
            // 9×9 points: the place in the middle, no room for a name over it, no attribution.
            let camera = try MapCamera(
                center: Coordinate(longitude: place.longitude, latitude: place.latitude), zoom: zoom, width: 9,
                height: 9)
            let (canvas, _) = try renderer.render(
                StaticMap(camera: camera, basemap: .world, attribution: ""), format: .png)
            let near = (2...6).flatMap { y in (2...6).map { x in pixel(canvas, x, y) } }
            if !near.contains(where: { $0 == land }) { offLand.append(place.name) }
        }
        #expect(land == [242, 239, 233, 255])
        #expect(offLand == [])
    }

    /// Natural Earth gives one place (Oymyakon) 0, 0 in its attributes; it is named where its geometry puts it, and
    /// nothing is named at 0, 0 in the Gulf of Guinea.
    @Test func placesAreWhereTheyAre() throws {
        let places = try WorldBasemap.file().places()
        #expect(places.count == 7_343)
        #expect(places.filter { abs($0.x - 0.5) < 1e-6 && abs($0.y - 0.5) < 1e-6 }.map(\.name) == [])
        let oymyakon = try #require(places.first { $0.name == "Oymyakon" })
        #expect(
            abs(WebMercator.longitude(x: oymyakon.x) - 142.7698) < 1e-4
                && abs(WebMercator.latitude(y: oymyakon.y) - 63.4214) < 1e-4)
    }
}
