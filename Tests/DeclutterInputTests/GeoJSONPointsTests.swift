import DeclutterSupport
import Foundation
import Testing

@testable import DeclutterGeometry
@testable import DeclutterInput

/// GeoJSON as users' files have it: MultiPoints, features without a geometry, and messages that give the JSON path
/// (`features[N]` from 0).
@Suite struct GeoJSONPointsTests {
    @Test func aMultiPointGivesAPointPerPosition() throws {
        let text = #"""
            {"type":"FeatureCollection","features":[
              {"type":"Feature","id":7,"properties":{"kind":"stop"},"geometry":{"type":"MultiPoint","coordinates":[[10,50],[11,51]]}},
              {"type":"Feature","properties":{"kind":"depot"},"geometry":{"type":"Point","coordinates":[12,52]}},
              {"type":"Feature","id":null,"properties":{"kind":"depot"},"geometry":{"type":"Point","coordinates":[13,53]}}]}
            """#
        let points = try readPoints(text, name: "stops.geojson", PointReader(categoryProperty: "kind")).points
        #expect(
            points.map(\.location?.longitude) == [10, 11, 12, 13]
                && points.map(\.location?.latitude) == [50, 51, 52, 53])
        #expect(points.map(\.category) == ["stop", "stop", "depot", "depot"])
        // `"id": null` is no id, as for a feature without the member (a layout named the point "marker-null").
        #expect(points.map(\.id) == [.number(7), .number(7), nil, nil])
    }

    /// Features with the same property keys in the same order keep the keys once; others keep their own.
    @Test func featuresOfOneShapeShareTheirKeys() throws {
        let text = #"""
            {"type":"FeatureCollection","features":[
              {"type":"Feature","properties":{"name":"a","cc":"DE"},"geometry":{"type":"Point","coordinates":[1,2]}},
              {"type":"Feature","properties":{"name":"b","cc":"FR"},"geometry":{"type":"Point","coordinates":[3,4]}},
              {"type":"Feature","properties":{"cc":"IT","name":"c"},"geometry":{"type":"Point","coordinates":[5,6]}},
              {"type":"Feature","properties":{"cc":"ES","name":"d"},"geometry":{"type":"MultiPoint","coordinates":[[7,8],[9,10]]}}
            ]}
            """#
        let points = try PointReader().read(Data(text.utf8), name: "f.geojson").points
        #expect(points.count == 5)
        #expect(points[1].properties.sharesKeys(with: points[0].properties))
        #expect(!points[2].properties.sharesKeys(with: points[1].properties))
        #expect(points[3].properties.sharesKeys(with: points[2].properties))
        #expect(points[4].properties.sharesKeys(with: points[2].properties))
        #expect(points.map { $0.properties["name"] } == ["a", "b", "c", "d", "d"].map(JSONValue.string))
        #expect(points[2].properties.keys == ["cc", "name"])
    }

    @Test func featuresWithoutAGeometryAreCountedAndNeverLocated() throws {
        let located = #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[10,50]}}"#
        let unlocated = #"{"type":"Feature","properties":{},"geometry":null}"#
        let features = (0..<14).map { [4, 9, 12].contains($0) ? unlocated : located }
        let result = try readPoints(
            #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}", name: "stops.geojson"
        )
        // They stay as unlocated points, so that the others keep the features' numbering (supercluster's ids count
        // them).
        #expect(result.points.count == 14 && result.withoutGeometry == 3 && result.skipped == 0)
        #expect(result.points.indices.filter { result.points[$0].location == nil } == [4, 9, 12])
        #expect(
            result.warnings == [
                "stops.geojson: 3 features have no geometry (features[4], features[9], features[12]); skipped"
            ])
        let many = try readPoints(
            "[" + Array(repeating: unlocated, count: 7).joined(separator: ",") + "]", name: "x.geojson")
        #expect(
            many.warnings == [
                "x.geojson: 7 features have no geometry (features[0], features[1], features[2], features[3], features[4], …); skipped"
            ])
        let alone = try readPoints(unlocated, name: "one.geojson")
        #expect(alone.points.count == 1)
        #expect(alone.warnings == ["one.geojson: 1 feature has no geometry; skipped"])
    }

    /// Features one a line (as tippecanoe reads them) or each after a record separator (RFC 8142) are read in order,
    /// numbered as a collection's features are, from a file of any of the sequences' usual extensions or from standard
    /// input; a bad one is named by its line.
    @Test func aSequenceOfFeaturesIsReadFeatureByFeature() throws {
        func feature(_ longitude: Int, _ kind: String) -> String {
            #"{"type":"Feature","properties":{"kind":"\#(kind)"},"geometry":{"type":"Point","coordinates":[\#(longitude),50]}}"#
        }
        let lines = [feature(10, "a"), feature(11, "b"), feature(12, "a")]
        let reader = PointReader(categoryProperty: "kind")
        for (text, name) in [
            (lines.joined(separator: "\n") + "\n", "x.geojsonl"), (lines.joined(separator: "\r\n"), "x.ndjson"),
            (lines.map { "\u{1E}" + $0 + "\n" }.joined(), "x.geojsons"),
        ] {
            let read = try readPoints(text, name: name, reader)
            #expect(read.points.map(\.location?.longitude) == [10, 11, 12], "\(name)")
            #expect(read.points.map(\.category) == ["a", "b", "a"], "\(name)")
            #expect(read.origins == [0, 1, 2], "\(name)")
            #expect(try PointReader().read(Data(text.utf8), name: "<stdin>").points.count == 3, "\(name)")
        }
        #expect(PointFormat.sniffed(from: Data(("\u{1E}" + lines[0]).utf8)) == .geojson)
        let line = #"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}"#
        #expect(
            readingMessage(lines[0] + "\n\n" + lines[1] + "\n" + line + "\n", name: "x.geojsonl")
                == "x.geojsonl: line 4: geometry: expected a Point or MultiPoint geometry, found \"LineString\"")
        #expect(
            readingMessage(lines[0] + "\n" + #"{"type":"FeatureCollection","features":[]}"#, name: "x.geojsonl")
                == #"x.geojsonl: line 2: type: expected "Feature", found "FeatureCollection""#)
        #expect(
            readingMessage(lines[0] + "\n" + #"{"type":"Feature","#, name: "x.geojsonl")
                == "x.geojsonl: not valid JSON (line 2, column 19: expected a string key)")
    }

    @Test func geoJSONFeaturesAreNumberedAsJSONPaths() {
        let point = #"{"type":"Feature","geometry":{"type":"Point","coordinates":[10,50]}}"#
        #expect(
            readingMessage(
                "[\(point),\(point),{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[10,95]}}]",
                name: "x.geojson")
                == "x.geojson: features[2].geometry.coordinates: latitude 95.0 is outside -90…90")
        #expect(
            readingMessage(
                #"{"features":[{"geometry":{"type":"MultiPoint","coordinates":[[10,50],[200,50]]}}]}"#,
                name: "x.geojson")
                == "x.geojson: features[0].geometry.coordinates[1]: longitude 200.0 is outside -180…180")
        #expect(
            readingMessage(
                #"{"features":[\#(point),{"geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}]}"#,
                name: "x.geojson")
                == "x.geojson: features[1].geometry: expected a Point or MultiPoint geometry, found \"LineString\"")
        #expect(
            readingMessage(#"{"features":[\#(point),3]}"#, name: "x.geojson")
                == "x.geojson: features[1]: expected a Feature object")
        // A geometry where a feature belongs, or properties that are no object, are said rather than read past.
        #expect(
            readingMessage(#"{"features":[\#(point),{"type":"Point","coordinates":[10,50]}]}"#, name: "x.geojson")
                == #"x.geojson: features[1].type: expected "Feature", found "Point""#)
        for (properties, found) in [("[1,2]", "a list"), (#""Rome""#, "a string"), ("7", "7")] {
            let feature = #"{"type":"Feature","geometry":{"type":"Point","coordinates":[10,50]},"properties":"#
            #expect(
                readingMessage(#"{"features":[\#(point),\#(feature)\#(properties)}]}"#, name: "x.geojson")
                    == "x.geojson: features[1].properties: expected an object or null, found \(found)")
        }
    }
}
