import DeclutterCore
import DeclutterPNG
import DeclutterServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// Starts a ``MapServer`` in process on a free port and makes real HTTP requests to it.
enum ServerHarness {
    /// 60 points in three categories of the default style around Paris, seeded so that every run has the same.
    static let points: [ClusterPoint] = (0..<60).map { index in
        let angle = Double(index) * 2.399963, radius = 0.02 * Double(index).squareRoot()
        return ClusterPoint(longitude: 2.35 + radius * cos(angle), latitude: 48.85 + radius * sin(angle) * 0.66,
                            properties: JSONObject([("kind", .string(["blue", "orange", "green"][index % 3]))]),
                            id: .number(Double(index)), category: ["blue", "orange", "green"][index % 3])
    }

    /// The `paris` dataset of ``points`` in the default style.
    static func dataset() throws -> Dataset {
        try Dataset(name: "paris", points: points, style: StyleCatalog().style(named: "default"), styleName: "default")
    }

    /// A server of the `paris` dataset with the given pool and limits, on a free port.
    static func server(pool: RenderPool = RenderPool(workers: 2, queueLength: 8), limits: ServerLimits = ServerLimits()) throws -> MapServer {
        var logger = Logger(label: "declutter.serve.tests")
        logger.logLevel = .critical
        return MapServer(host: "127.0.0.1", port: 0, datasets: [try dataset()], pool: pool, limits: limits, logger: logger)
    }

    /// Runs `test` against `server` started live.
    static func run(_ server: MapServer, _ test: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        try await server.application().test(.live, test)
    }

    /// The response body's bytes.
    static func bytes(_ response: TestResponse) -> [UInt8] { Array(response.body.readableBytesView) }

    /// The response body as JSON.
    static func json(_ response: TestResponse) throws -> JSONValue { try JSONParser.parse(Data(bytes(response))) }

    /// Expects a JSON error with `status` naming `field`, and returns its message.
    @discardableResult
    static func expectError(_ response: TestResponse, _ status: HTTPResponse.Status, field: String,
                            sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        #expect(response.status == status, sourceLocation: sourceLocation)
        #expect(response.headers[.contentType] == "application/json", sourceLocation: sourceLocation)
        let object = try json(response).object
        #expect(object?["field"]?.string == field, sourceLocation: sourceLocation)
        let message = try #require(object?["error"]?.string, sourceLocation: sourceLocation)
        #expect(!message.isEmpty, sourceLocation: sourceLocation)
        return message
    }

    /// The PNG in a response, decoded.
    static func png(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) throws -> PNGDecoder.Image {
        #expect(response.status == .ok, sourceLocation: sourceLocation)
        #expect(response.headers[.contentType] == "image/png", sourceLocation: sourceLocation)
        return try PNGDecoder.decode(Data(bytes(response)))
    }
}
