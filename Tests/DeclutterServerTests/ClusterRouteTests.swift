import DeclutterClustering
import DeclutterServer
import DeclutterStyle
import DeclutterSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// What a click on a cluster of a dataset's tiles can ask (issue #38): its leaves page by page, its children at the
/// next zoom and the zoom where it comes apart, by the `cluster_id` its tile feature carries.
@Suite struct ClusterRouteTests {
    @Test func aZoomZeroClusterOfAllSixtyPointsAnswersItsLeavesChildrenAndExpansionZoom() async throws {
        let dataset = try ServerHarness.dataset()
        // The 60 points span 0.3° around Paris: at zoom 0 they are one cluster.
        let top = try #require(dataset.tiles.tileset.features(zoom: 0).first)
        #expect(dataset.tiles.tileset.features(zoom: 0).count == 1)
        #expect(top.pointCount == 60)
        let id = try #require(top.clusterID)
        try await ServerHarness.run(
            MapServer(port: 0, datasets: [dataset], logger: ServerHarness.quietLogger)
        ) { client in
            // Every point once over pages of 25, each as it came: its id, properties and location.
            var ids: [Double] = []
            for offset in [0, 25, 50] {
                let page = try await client.execute(
                    uri: "/tiles/paris/clusters/\(id)/leaves?limit=25&offset=\(offset)", method: .get)
                #expect(page.status == .ok)
                #expect(page.headers[.contentType] == "application/geo+json")
                let features = try #require(try ServerHarness.json(page).object?["features"]?.array)
                #expect(features.count == (offset == 50 ? 10 : 25))
                for feature in features {
                    let index = try #require(feature.object?["id"]?.number)
                    ids.append(index)
                    let point = ServerHarness.points[Int(index)]
                    #expect(feature.object?["properties"]?.object?["kind"]?.string == point.properties["kind"]?.string)
                    let coordinates = feature.object?["geometry"]?.object?["coordinates"]?.array?.compactMap(\.number)
                    #expect(coordinates == [point.location?.longitude ?? 0, point.location?.latitude ?? 0])
                }
            }
            #expect(ids.sorted() == (0..<60).map(Double.init))

            // The children hold the same 60 points, each a cluster of the next zoom or a point.
            let children = try await client.execute(uri: "/tiles/paris/clusters/\(id)/children", method: .get)
            let features = try #require(try ServerHarness.json(children).object?["features"]?.array)
            let counts = features.map { $0.object?["properties"]?.object?["point_count"]?.number ?? 1 }
            #expect(counts.reduce(0, +) == 60)

            // The expansion zoom is the first at which the 60 points stand in more than one feature.
            let answer = try await client.execute(uri: "/tiles/paris/clusters/\(id)/expansion-zoom", method: .get)
            #expect(answer.headers[.contentType] == "application/json")
            let zoom = try #require(try ServerHarness.json(answer).object?["expansion_zoom"]?.number)
            #expect(dataset.tiles.tileset.features(zoom: Int(zoom)).count > 1)
            #expect(dataset.tiles.tileset.features(zoom: Int(zoom) - 1).count == 1)
        }
    }

    @Test func badIdsLimitsAndQueriesAreNamed() async throws {
        try await ServerHarness.run(try ServerHarness.server()) { client in
            try ServerHarness.expectError(
                try await client.execute(uri: "/tiles/paris/clusters/x1/leaves", method: .get), .badRequest,
                field: "cluster_id")
            // Parameters the route does not take, or given twice, are refused as the static maps' URLs refuse them.
            try ServerHarness.expectError(
                try await client.execute(uri: "/tiles/paris/clusters/0/leaves?foo=1", method: .get), .badRequest,
                field: "foo")
            try ServerHarness.expectError(
                try await client.execute(uri: "/tiles/paris/clusters/0/leaves?limit=1&limit=2", method: .get),
                .badRequest, field: "limit")
            try ServerHarness.expectError(
                try await client.execute(uri: "/tiles/paris/clusters/0/children?limit=1", method: .get), .badRequest,
                field: "limit")
            try ServerHarness.expectError(
                try await client.execute(uri: "/tiles/paris/clusters/999999999/leaves", method: .get), .notFound,
                field: "cluster_id")
            try ServerHarness.expectError(
                try await client.execute(uri: "/tiles/paris/clusters/0/leaves?limit=-1", method: .get), .badRequest,
                field: "limit")
            try ServerHarness.expectError(
                try await client.execute(uri: "/tiles/paris/clusters/0/leaves?limit=20000", method: .get),
                .unprocessableContent, field: "limit")
            // A number out of range is 422, as a zoom out of range is; eleven digits are one too.
            try ServerHarness.expectError(
                try await client.execute(uri: "/tiles/paris/clusters/0/leaves?offset=99999999999", method: .get),
                .unprocessableContent, field: "offset")
            try ServerHarness.expectError(
                try await client.execute(uri: "/tiles/paris/clusters/0/parents", method: .get), .notFound,
                field: "path")
            try ServerHarness.expectError(
                try await client.execute(uri: "/tiles/rome/clusters/0/leaves", method: .get), .notFound,
                field: "dataset")
        }
    }

    /// `serve --aggregate`: a dataset's clusters carry the aggregate in their tiles' children and GeoJSON, the sum of
    /// the members' `rank` (the points' index here): 0 + 1 + … + 59 at zoom 0.
    @Test func aDatasetsClustersCarryTheirAggregates() async throws {
        let points = ServerHarness.points.enumerated().map { index, point in
            var point = point
            point.properties["rank"] = .number(Double(index))
            return point
        }
        let dataset = try Dataset(
            name: "paris", points: points, style: StyleCatalog().style(named: "default"), styleName: "default",
            aggregates: [ClusterAggregate(name: "rank_sum", function: .sum, property: "rank")])
        let top = try #require(dataset.tiles.tileset.features(zoom: 0).first?.clusterID)
        let children = try #require(
            try dataset.tiles.tileset.childrenGeoJSON(of: top).object?["features"]?.array)
        let sums = children.compactMap { $0.object?["properties"]?.object?["rank_sum"]?.number }
        #expect(sums.count == children.filter { $0.object?["properties"]?.object?["cluster"] == .bool(true) }.count)
        let singles = children.compactMap { $0.object?["properties"]?.object?["rank"]?.number }
        #expect(sums.reduce(0, +) + singles.reduce(0, +) == Double((0..<60).reduce(0, +)))
    }
}
