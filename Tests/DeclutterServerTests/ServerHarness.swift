import DeclutterClustering
import DeclutterPNG
import DeclutterPlacement
import DeclutterRender
import DeclutterServer
import DeclutterStaticAPI
import DeclutterStyle
import DeclutterSupport
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
        return ClusterPoint(
            longitude: 2.35 + radius * cos(angle), latitude: 48.85 + radius * sin(angle) * 0.66,
            properties: JSONObject([("kind", .string(["blue", "orange", "green"][index % 3]))]),
            id: .number(Double(index)), category: ["blue", "orange", "green"][index % 3])
    }

    /// The `paris` dataset of ``points`` in the default style.
    static func dataset() throws -> Dataset {
        try Dataset(name: "paris", points: points, style: StyleCatalog().style(named: "default"), styleName: "default")
    }

    /// A logger that keeps the test output clean.
    static var quietLogger: Logger {
        var logger = Logger(label: "declutter.serve.tests")
        logger.logLevel = .critical
        return logger
    }

    /// A server of the `paris` dataset with the given pool and limits, on a free port.
    static func server(pool: RenderPool = RenderPool(workers: 2, queueLength: 8), limits: ServerLimits = ServerLimits())
        throws -> MapServer
    {
        MapServer(
            host: "127.0.0.1", port: 0, datasets: [try dataset()], pool: pool, limits: limits, logger: quietLogger)
    }

    /// TANDm's unicycles alone, without their glyph.
    static let soloStyle = """
        {"name": "Solo", "font": "DejaVu Sans Bold", "cluster": {"buckets": [{"minimumCount": 2, "diameter": 40, "innerDiameter": 24, \
        "fontSize": 20, "maxTextWidth": 32}], "innerColor": "#FFFFFF", "textColor": "#000000", "abbreviate": true, "collisionMode": "circle"}, \
        "balloon": {"width": 30, "height": 40, "glyphSize": 20, "glyphColor": "#FFFFFF", "strokeWidth": 1, "strokeShade": 0.8}, \
        "categories": [{"name": "unicycle", "color": [0.668, 0.475, 0.259], "solidCluster": true, "clusteringIdentifier": "unicycle"}]}
        """

    /// A catalog with ``soloStyle`` as `solo` in a new temporary folder, which the caller removes.
    static func soloCatalog() throws -> (StyleCatalog, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "declutter-serve-styles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(soloStyle.utf8).write(to: folder.appendingPathComponent("solo.json"))
        return (StyleCatalog(directory: folder.path), folder)
    }

    /// Runs `test` against `server` started live.
    ///
    /// HummingbirdTesting's live client connects as the test starts and never reconnects, so a connection the server
    /// closes fails every later request ("I/O on closed channel"). On a loaded test run a test's first request can come
    /// after the default 10-s header timeout, so connections are kept for 5 minutes unless the test set its own
    /// timeouts (as the edge tests do).
    static func run(_ server: MapServer, _ test: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        try await patient(server).application().test(.live, test)
    }

    /// `server` keeping connections for 5 minutes unless the test set its own header or idle timeout: on a loaded
    /// test run a client's request can come after the default 10-s header timeout.
    static func patient(_ server: MapServer) -> MapServer {
        var server = server
        let defaults = ServerLimits()
        if server.limits.headerSeconds == defaults.headerSeconds { server.limits.headerSeconds = 300 }
        if server.limits.idleSeconds == defaults.idleSeconds { server.limits.idleSeconds = 300 }
        return server
    }

    /// The response body's bytes.
    static func bytes(_ response: TestResponse) -> [UInt8] { Array(response.body.readableBytesView) }

    /// The response body as JSON.
    static func json(_ response: TestResponse) throws -> JSONValue { try JSONParser.parse(Data(bytes(response))) }

    /// Expects a JSON error with `status` naming `field`, and returns its message.
    @discardableResult
    static func expectError(
        _ response: TestResponse, _ status: HTTPResponse.Status, field: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        #expect(response.status == status, sourceLocation: sourceLocation)
        #expect(response.headers[.contentType] == "application/json", sourceLocation: sourceLocation)
        let object = try json(response).object
        #expect(object?["field"]?.string == field, sourceLocation: sourceLocation)
        let message = try #require(object?["error"]?.string, sourceLocation: sourceLocation)
        #expect(!message.isEmpty, sourceLocation: sourceLocation)
        return message
    }

    /// The PNG in a response, decoded.
    static func png(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> PNGDecoder.Image
    {
        #expect(response.status == .ok, sourceLocation: sourceLocation)
        #expect(response.headers[.contentType] == "image/png", sourceLocation: sourceLocation)
        return try PNGDecoder.decode(Data(bytes(response)))
    }
}
