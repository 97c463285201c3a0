import DeclutterClustering
import DeclutterMap
import DeclutterRender
import DeclutterServer
import DeclutterStaticAPI
import DeclutterTileSources
import Foundation
import Testing
import TileTestServer

/// `render --tiles URL` against servers that misbehave: each run ends by its `--deadline` with the exit code, message
/// and files its `--missing-tiles` choice asks for, and sends no more requests than it needs.
@Suite struct RenderTileFetchTests {
    /// A 1024-point map centred on 0,0 at zoom 6: the 16 tiles of columns and rows 30…33.
    let sixteenTiles = ["--center", "0,0", "--zoom", "6", "--size", "1024x1024"]

    /// A 256-px PNG tile: one of the test tiles.
    func tile() throws -> Data {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        return try Data(contentsOf: writeTestTiles(into: folder).appendingPathComponent("15/5235/12660.png"))
    }

    /// Runs `render` over the server's tiles in a fresh folder (its cache in another) and returns the result and the
    /// files the run left in the folder.
    func render(_ server: TileServer, _ arguments: [String]) throws -> (CommandResult, [String]) {
        let folder = try scratchFolder(), cache = try scratchFolder()
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: cache)
        }
        let result = try CommandResult.run(
            [
                "render", "--input", tandmPlist, "--tiles", "http://127.0.0.1:\(server.port)/{z}/{x}/{y}.png",
                "--tile-cache", cache.path, "--layout", "layout.json", "--output", "map.png",
            ]
                + sixteenTiles + arguments, in: folder)
        return (result, try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted())
    }

    /// Before, 16 tiles from a silent server took 61.6 s: three tries of each, eight at a time.
    @Test func aSilentServerFailsTheMapAtTheDeadline() throws {
        let silent = try TileServer { _, _ in .silence }
        defer { silent.stop() }
        let (result, files) = try render(silent, ["--deadline", "1"])
        #expect(result.status == 2)
        #expect(
            result.stderr == "Error: cannot reach the tile server http://127.0.0.1:\(silent.port)/{z}/{x}/{y}.png: "
                + "no answer within the map's deadline of 1 s\n")
        #expect(files == [])
        #expect(silent.requests.count == 8)
    }

    @Test func aRefusedConnectionFailsTheMapAtOnce() throws {
        let port = try TileServer.closedPort()
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandResult.run(
            [
                "render", "--input", tandmPlist, "--tiles", "http://127.0.0.1:\(port)/{z}/{x}/{y}.png",
                "--tile-cache", folder.appendingPathComponent("cache").path, "--output", "map.png",
            ]
                + sixteenTiles, in: folder)
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix("Error: cannot reach the tile server http://127.0.0.1:\(port)/{z}/{x}/{y}.png: "))
        #expect(result.stderr.hasSuffix("; the server did not answer the first 8 requests\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    /// One tile never comes: grey squares draw the map with a warning; fail refuses it and writes nothing.
    @Test func aTileStillMissingAtTheDeadlineIsGreyOrFailsAsChosen() throws {
        let png = try tile()
        let server = try TileServer { path, _ in path == "/6/31/32.png" ? .silence : .answer(status: 200, body: png) }
        defer { server.stop() }
        let (grey, greyFiles) = try render(server, ["--deadline", "1"])
        #expect(grey.status == 0, "\(grey.stderr)")
        // The map of tiles only is drawn away from the sample's points, which the note says.
        #expect(
            grey.stderr
                == "warning: tile 6/31/32: not fetched within the map's deadline of 1 s\n"
                + "note: no point is on the map at --center 0,0 (LAT,LON); the points lie at latitudes 37.8…37.81 and "
                + "longitudes -122.42…-122.41\n")
        #expect(greyFiles == ["layout.json", "map.png"])
        let (fail, failFiles) = try render(server, ["--deadline", "1", "--missing-tiles", "fail"])
        #expect(fail.status == 2)
        #expect(
            fail.stderr
                == "Error: 1 of 16 tiles are missing, first tile 6/31/32: not fetched within the map's deadline of 1 s; "
                + "--missing-tiles grey draws them as grey squares\n")
        #expect(failFiles == [])
        #expect(server.requests.count == 32)
    }

    /// Rate limited for an hour: no tile is waited for, and no more than the first requests are sent.
    @Test func aLongRetryAfterFailsTheMapWithoutWaiting() throws {
        let server = try TileServer { _, _ in .answer(status: 429, headers: ["Retry-After": "3600"]) }
        defer { server.stop() }
        let (result, files) = try render(server, ["--missing-tiles", "fail"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("Error: 16 of 16 tiles are missing, first tile 6/30/30: "))
        #expect(result.stderr.contains("3600 s"))
        #expect(files == [])
        #expect((1...8).contains(server.requests.count))
    }

    @Test(arguments: [
        (["--deadline", "0"], "Error: --deadline must be in (0, 600] seconds, got 0"),
        (["--deadline", "601"], "Error: --deadline must be in (0, 600] seconds, got 601"),
        (["--missing-tiles", "skip"], "Error: --missing-tiles must be grey or fail, got skip"),
    ])
    func badFetchOptionsExitTwo(arguments: [String], message: String) throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandResult.run(
            ["render", "--input", tandmPlist, "--output", "map.png"] + arguments, in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
