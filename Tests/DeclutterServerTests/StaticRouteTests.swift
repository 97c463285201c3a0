import DeclutterCore
import DeclutterServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// `/health`, the dataset map route and the Mapbox-shape static route, over real HTTP.
@Suite struct StaticRouteTests {
    @Test func healthListsTheDatasets() async throws {
        try await ServerHarness.run(try ServerHarness.server()) { client in
            let response = try await client.execute(uri: "/health", method: .get)
            #expect(response.status == .ok)
            #expect(String(buffer: response.body) == "{\"status\":\"ok\",\"datasets\":[\"paris\"]}\n")
        }
    }

    @Test func datasetMapIsAPNGOfTheSizeAndScale() async throws {
        try await ServerHarness.run(try ServerHarness.server()) { client in
            let plain = try ServerHarness.png(try await client.execute(uri: "/datasets/paris/static/2.35,48.85,12/300x200", method: .get))
            #expect((plain.width, plain.height) == (300, 200))
            let retina = try ServerHarness.png(try await client.execute(uri: "/datasets/paris/static/auto/300x200@2x", method: .get))
            #expect((retina.width, retina.height) == (600, 400))
        }
    }

    @Test func unknownRouteDatasetAndStyleAre404() async throws {
        try await ServerHarness.run(try ServerHarness.server()) { client in
            try ServerHarness.expectError(try await client.execute(uri: "/nothing/here", method: .get), .notFound, field: "path")
            let dataset = try ServerHarness.expectError(try await client.execute(uri: "/datasets/rome/static/auto/300x200", method: .get),
                                                        .notFound, field: "dataset")
            #expect(dataset == "no dataset \"rome\"; datasets: paris")
            try ServerHarness.expectError(try await client.execute(uri: "/styles/v1/me/nostyle/static/0,0,2/300x200", method: .get),
                                          .notFound, field: "style")
        }
    }
}
