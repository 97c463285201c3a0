import DeclutterServer
import Foundation
import Testing
import TileTestServer

/// `declutter serve` as a process: refusals before it listens, and a SIGTERM that ends it cleanly. The routes are
/// DeclutterServerTests' to test, in process.
@Suite struct ServeCommandTests {
    @Test(arguments: [
        (["--dataset", "airports"], "Error: --dataset airports: expected NAME=FILE or NAME=FILE,category=PROP"),
        (
            ["--dataset", "a=x.csv,category="],
            "Error: --dataset a=x.csv,category=: the category property is empty; expected NAME=FILE or NAME=FILE,category=PROP"
        ),
        (
            ["--dataset", "a=x.csv,colour=cc"],
            "Error: --dataset a=x.csv,colour=cc: unknown key \"colour\"; expected NAME=FILE or NAME=FILE,category=PROP"
        ),
        (
            ["--dataset", "a b=x.csv"],
            "Error: --dataset a b=x.csv: dataset name \"a b\" is not 1…64 ASCII letters, digits, '-' or '_'"
        ),
        (["--style", "nope"], "Error: --style: no style \"nope\"; styles: airports, default, tandm"),
        (["--port", "70000"], "Error: --port must be in 0…65535, got 70000"),
        // Taken before for a folder's path, and every map's tiles for missing files; a base that is no URL was
        // written into every TileJSON.
        (
            ["--tiles", "ftp://x/{z}/{x}/{y}.png"],
            "Error: --tiles ftp://x/{z}/{x}/{y}.png: ftp:// is not fetched; expected an http(s) URL template, a folder or path template, or an .mbtiles file"
        ),
        (
            ["--public-url", "not a url"],
            "Error: --public-url must be an absolute http(s) URL (https://maps.example.org/ or with a path), got not a url"
        ),
        (["--workers", "0"], "Error: --workers must be in 1…256, got 0"),
        (
            ["--cors-origin", "localhost:8000/page"],
            "Error: --cors-origin must be * or an origin as a browser sends it (scheme://host[:port], no path), got localhost:8000/page"
        ),
        (["--tileset", "pm"], "Error: --tileset pm: expected NAME=FILE.pmtiles or NAME=FILE.mbtiles"),
        (
            ["--tileset", "pm=points.csv"],
            "Error: --tileset pm=points.csv: points.csv: expected a .pmtiles or .mbtiles file, got .csv"
        ),
        (
            ["--tileset", "pm=missing.pmtiles"],
            "Error: --tileset pm=missing.pmtiles: missing.pmtiles: cannot open it (No such file or directory)"
        ),
        (
            ["--maplibre-url", "."],
            "Error: --maplibre-url .: expected an http(s) URL or a folder holding maplibre-gl.js and maplibre-gl.css"
        ),
        (
            ["--log-level", "loud"],
            "Error: --log-level must be one of trace, debug, info, notice, warning, error, critical, got loud"
        ),
    ])
    func badUsageExitsTwoBeforeListening(arguments: [String], message: String) throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandResult.run(["serve", "--port", "0"] + arguments, in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
        #expect(!result.stderr.contains("listening"))
    }

    /// A port another server listens on is named as the option that chose it, not as the socket call that failed.
    @Test func aPortInUseIsNamed() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 1) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        try #require(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Said before any dataset is read: here the file is missing, which would be said otherwise.
        let result = try CommandResult.run(
            ["serve", "--host", "127.0.0.1", "--port", "\(port)", "--dataset", "a=missing.csv"], in: folder)
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix(
                "Error: serve: --host 127.0.0.1 --port \(port): the address is already in use (another server listens "
                    + "there); stop it or choose another --port"), "\(result.stderr)")
    }

    @Test func aMissingDatasetFileExitsTwo() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandResult.run(["serve", "--port", "0", "--dataset", "a=missing.csv"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains("missing.csv"), "\(result.stderr)")
    }

    /// A folder, an empty path and a binary file as a dataset: each message names the option and the file, and prints
    /// none of the file's bytes (issue #37, finding 7).
    @Test func aFolderAnEmptyPathAndABinaryFileAreNamed() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("points.csv"), withIntermediateDirectories: true)
        var binary = Data([
            0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        ])
        binary.append(Data(repeating: 0x9B, count: 64))
        try binary.write(to: folder.appendingPathComponent("image.csv"))
        let cases = [
            (
                "a=points.csv",
                "Error: --dataset a=points.csv: points.csv: is a folder; expected a point file (.geojson, .json, .csv, .tsv or .plist)\n"
            ),
            ("a=", "Error: --dataset a=: the file name is empty; expected NAME=FILE or NAME=FILE,category=PROP\n"),
            (
                "a=image.csv",
                "Error: --dataset a=image.csv: image.csv: is not text (a binary byte at offset 0); expected CSV in UTF-8\n"
            ),
        ]
        for (argument, message) in cases {
            let result = try CommandResult.run(["serve", "--port", "0", "--dataset", argument], in: folder)
            #expect(result.status == 2, "\(argument)")
            #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
            #expect(
                !result.stderr.contains("IHDR") && !result.stderr.contains("NSCocoaErrorDomain"), "\(result.stderr)")
        }
    }

    @Test func aDatasetWhosePointsLackItsCategoryPropertyIsRefused() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("zip,lat,lon\n10001,40.75,-73.99\n94103,37.77,-122.41\n".utf8).write(
            to: folder.appendingPathComponent("zips.csv"))
        let result = try CommandResult.run(
            ["serve", "--port", "0", "--category", "cc", "--dataset", "zips=zips.csv"], in: folder)
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix(
                "Error: --dataset zips=zips.csv: zips.csv: no point has the property \"cc\" to colour it by; "
                    + "its points have \"zip\" (give NAME=FILE,category=PROP for this dataset)"), "\(result.stderr)")
        // An aggregate of a property no point has is refused as `tiles` refuses it.
        let aggregate = try CommandResult.run(
            ["serve", "--port", "0", "--aggregate", "people=sum:pop", "--dataset", "zips=zips.csv"], in: folder)
        #expect(aggregate.status == 2)
        #expect(
            aggregate.stderr.hasPrefix(
                "Error: --dataset zips=zips.csv: zips.csv: --aggregate people=sum:pop: no point has the property \"pop\" "
                    + "to aggregate; its points have \"zip\""), "\(aggregate.stderr)")
    }

    @Test func eachDatasetTakesItsOwnCategoryProperty() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("zip,state,lat,lon\n10001,NY,40.75,-73.99\n94103,CA,37.77,-122.41\n".utf8).write(
            to: folder.appendingPathComponent("zips.csv"))
        try Data("name,cc,lat,lon\nParis,FR,48.85,2.35\nBerlin,DE,52.52,13.40\n".utf8).write(
            to: folder.appendingPathComponent("cities.csv"))
        let serve = try ServeProcess(
            [
                "serve", "--port", "0", "--category", "cc", "--dataset", "cities=cities.csv",
                "--dataset", "zips=zips.csv,category=state",
            ], in: folder)
        defer { serve.stop() }
        #expect(try await serve.listeningPort() != nil)
        serve.stop()
        #expect(
            serve.log.hasPrefix(
                "loaded cities: 2 points in style \"Default\"\nloaded zips: 2 points in style \"Default\"\n"),
            "\(serve.log)")
        let process = serve.process
        #expect(process.terminationStatus == 0)
    }

    /// A dataset file is read with the options `render --input` takes: its columns named, its bad rows skipped with a
    /// warning naming the file; without `--skip-invalid` the first bad row refuses it.
    @Test func datasetsAreReadWithTheInputOptions() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("name;Latitude_Y;Longitude_X\nParis;48.85;2.35\nNowhere;95;2\nBerlin;52.52;13.40\n".utf8).write(
            to: folder.appendingPathComponent("cities.csv"))
        let refused = try CommandResult.run(
            ["serve", "--port", "0", "--dataset", "cities=cities.csv", "--lat", "Latitude_Y", "--lon", "Longitude_X"],
            in: folder)
        #expect(refused.status == 2)
        #expect(
            refused.stderr.hasPrefix(
                "Error: --dataset cities=cities.csv: cities.csv: line 3: latitude 95.0 is outside -90…90"),
            "\(refused.stderr)")
        let serve = try ServeProcess(
            [
                "serve", "--port", "0", "--dataset", "cities=cities.csv", "--lat", "Latitude_Y", "--lon", "Longitude_X",
                "--delimiter", ";", "--skip-invalid",
            ], in: folder)
        defer { serve.stop() }
        #expect(try await serve.listeningPort() != nil)
        serve.stop()
        #expect(serve.log.contains("warning: --dataset cities: cities.csv: skipped 1"), "\(serve.log)")
        #expect(serve.log.contains("loaded cities: 2 points in style \"Default\"\n"), "\(serve.log)")
    }

    @Test func loadsItsDatasetsListensAndEndsCleanlyOnSIGTERM() async throws {
        let serve = try ServeProcess(["serve", "--port", "0", "--dataset", "cycles=\(tandmPlist)", "--style", "tandm"])
        defer { serve.stop() }
        #expect(try await serve.listeningPort() != nil)
        #expect(serve.log.hasPrefix("loaded cycles: 65 points in style \"TANDm\"\n"))
        serve.stop()
        let process = serve.process
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        // A hang-up ends it as cleanly (it killed the process, status 129).
        let hungUp = try ServeProcess(["serve", "--port", "0", "--dataset", "cycles=\(tandmPlist)", "--style", "tandm"])
        defer { hungUp.stop() }
        #expect(try await hungUp.listeningPort() != nil)
        kill(hungUp.process.processIdentifier, SIGHUP)
        hungUp.stop()
        #expect(hungUp.process.terminationReason == .exit)
        #expect(hungUp.process.terminationStatus == 0)
    }

    /// A request whose body never comes holds graceful shutdown only until `--shutdown-timeout`: the server then
    /// closes it and exits 0, where it used to wait for the body timeout (here 300 s).
    @Test func aStalledRequestHoldsShutdownOnlyUntilItsTimeout() async throws {
        let serve = try ServeProcess([
            "serve", "--port", "0", "--body-timeout", "300", "--idle-timeout", "300", "--shutdown-timeout", "2",
        ])
        defer { serve.stop() }
        let port = try #require(try await serve.listeningPort(), "\(serve.log)")
        let stalled = try RawConnection(port: port)
        stalled.send(
            "POST /static HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
        try await Task.sleep(for: .milliseconds(500))
        let start = ContinuousClock.now
        kill(serve.process.processIdentifier, SIGTERM)
        while serve.process.isRunning && ContinuousClock.now - start < .seconds(60) {
            try await Task.sleep(for: .milliseconds(50))
        }
        let took = ContinuousClock.now - start
        #expect(!serve.process.isRunning, "still running 60 s after SIGTERM")
        serve.stop()
        // 2 s of grace, then the cancellation; a loaded machine's debug build takes a little longer.
        #expect(took >= .seconds(2) && took < .seconds(20), "exited \(took) after SIGTERM")
        #expect(serve.process.terminationReason == .exit)
        #expect(serve.process.terminationStatus == 0, "\(serve.log)")
    }
}
