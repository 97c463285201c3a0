import DeclutterClustering
import DeclutterCommandLine
import DeclutterGeometry
import DeclutterInput
import DeclutterMap
import DeclutterMapContent
import DeclutterPlacement
import DeclutterRender
import DeclutterStaticAPI
import DeclutterStyle
import DeclutterSupport
import DeclutterTiles
import Foundation
import Testing

@Suite struct ClusterCommandTests {
    let fixtures = packageRoot.appendingPathComponent("Tests/DeclutterTestSupport/Fixtures")

    func json(_ text: String) throws -> JSONValue {
        JSONValue(foundation: try JSONSerialization.jsonObject(with: Data(text.utf8)))
    }

    @Test func tilePrintsSuperclusterJSON() throws {
        let result = try CommandResult.run(
            [
                "cluster", "--input", fixtures.appendingPathComponent("supercluster/places.json").path,
                "--tile", "0/0/0", "--min-points", "5",
            ], in: packageRoot)
        #expect(result.status == 0)
        let expected = try Data(contentsOf: fixtures.appendingPathComponent("supercluster/places-z0-0-0-min5.json"))
        #expect(try json(result.stdout) == JSONValue(foundation: try JSONSerialization.jsonObject(with: expected)))
    }

    /// --tile-extent 4096 --buffer 64: the vector tile's features, the index's `tile(z:x:y:extent:buffer:)`.
    @Test func tileAtAVectorTilesExtentAndBuffer() throws {
        let places = fixtures.appendingPathComponent("supercluster/places.json")
        let result = try CommandResult.run(
            ["cluster", "--input", places.path, "--tile", "1/0/0", "--tile-extent", "4096", "--buffer", "64"],
            in: packageRoot)
        #expect(result.status == 0)
        let index = ClusterIndex(points: try PointReader().read(contentsOf: places).points)
        let expected = try #require(index.tile(z: 1, x: 0, y: 0, extent: 4096, buffer: 64))
        #expect(try json(result.stdout) == .object(JSONObject([("features", .array(expected.map(\.json)))])))
        let wider = try CommandResult.run(
            ["cluster", "--input", places.path, "--tile", "1/0/0", "--tile-extent", "4096", "--buffer", "2048"],
            in: packageRoot)
        let features = try #require(try json(wider.stdout).object?["features"]?.array)
        #expect(features.count > expected.count)
    }

    @Test func tandmClustersCarryCategoriesAndExpansionZoom() throws {
        let result = try CommandResult.run(
            ["cluster", "--input", fixtures.appendingPathComponent("tandm/Data.plist").path, "--zoom", "14"],
            in: packageRoot)
        #expect(result.status == 0)
        let features = try #require(try json(result.stdout).object?["features"]?.array)
        let members = features.reduce(0.0) { $0 + ($1.object?["properties"]?.object?["point_count"]?.number ?? 1) }
        #expect(members == 65)
        let first = try #require(features.first?.object?["properties"]?.object)
        #expect(first["cluster"] == .bool(true))
        #expect(first["categories"] == .object(JSONObject([("bicycle", .number(2)), ("tricycle", .number(7))])))
        #expect(first["expansion_zoom"] == .number(15))
    }

    @Test(arguments: [
        ("lat,lon,name\n50,10,a\n91,10,b\n", "points.csv: line 3: latitude 91.0 is outside -90…90"),
        ("lat,lon,name\n50,10,a\nx,10,b\n", "points.csv: line 3: latitude \"x\" is not a number"),
        (
            "name,lon\n1,2\n",
            "points.csv: line 1: header \"name,lon\" has no latitude column (separated by \",\"); "
                + "expected a column named lat, latitude, latitude_deg, lat_deg or y (or give --lat)"
        ),
        ("lat,lon\n50,10,3\n", "points.csv: line 2: expected 2 fields, found 3"),
        (
            "lat,lon,name\n48.85,2.35,\"open\n48.86,2.36,x\n",
            "points.csv: line 2: a quoted field opens here and is not closed before the end of the file"
        ),
    ])
    func badRowsAreNamedWithTheirLine(csv: String, message: String) throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(csv.utf8).write(to: folder.appendingPathComponent("points.csv"))
        let result = try CommandResult.run(["cluster", "--input", "points.csv", "--zoom", "3"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func extremeRadiusAndExtentGiveResultsNotCrashes() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("lat,lon\n10,10\n10,10\n".utf8).write(to: folder.appendingPathComponent("points.csv"))
        let tiny = try CommandResult.run(
            ["cluster", "--input", "points.csv", "--zoom", "0", "--radius", "1e-12"], in: folder)
        #expect(tiny.status == 0, "\(tiny.stderr)")
        let features = try #require(try json(tiny.stdout).object?["features"]?.array)
        #expect(features.count == 1 && features[0].object?["properties"]?.object?["point_count"] == .number(2))
        let huge = try CommandResult.run(
            ["cluster", "--input", "points.csv", "--tile", "0/0/0", "--extent", "1e20"], in: folder)
        #expect(huge.status == 0, "\(huge.stderr)")
    }

    @Test func aMisspeltPropertyIsRefusedWithTheOneMeant() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("lat,lon,kind,name\n10,10,a,x\n10,10,b,y\n".utf8).write(
            to: folder.appendingPathComponent("points.csv"))
        let result = try CommandResult.run(
            ["cluster", "--input", "points.csv", "--zoom", "3", "--group-by", "knid"], in: folder)
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "Error: --group-by knid: points.csv: no point has the property \"knid\" to group it by; its points "
                + "have \"kind\", \"name\" (did you mean \"kind\"?)\n")
        let category = try CommandResult.run(
            ["cluster", "--input", "points.csv", "--zoom", "3", "--category", "Kind"], in: folder)
        #expect(category.status == 2)
        #expect(
            category.stderr
                == "Error: --category Kind: points.csv: no point has the property \"Kind\" to colour it by; its points "
                + "have \"kind\", \"name\" (did you mean \"kind\"?)\n")
        #expect(category.stdout.isEmpty)
        let named = try CommandResult.run(
            ["cluster", "--input", "points.csv", "--zoom", "3", "--category", "kind"], in: folder)
        #expect(named.status == 0 && named.stderr.isEmpty)
    }

    @Test func aFailedWriteOfTheResultIsAnError() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("lat,lon\n10,10\n".utf8).write(to: folder.appendingPathComponent("points.csv"))
        let result = try CommandResult.run(
            ["cluster", "--input", "points.csv", "--zoom", "3"], in: folder, stdoutFile: "/dev/full")
        #expect(result.status == 2)
        #expect(result.stderr.contains("cannot write the result to standard output"), "\(result.stderr)")
    }

    @Test func skipInvalidCountsAndGoesOn() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("Latitude,LNG,name\n50,10,a\n91,10,b\n\"50.5\",nan,c\n50.001,10.001,\"d, with comma\"\n".utf8)
            .write(to: folder.appendingPathComponent("points.csv"))
        let result = try CommandResult.run(
            ["cluster", "--input", "points.csv", "--zoom", "3", "--bbox", "-10,40,20,60", "--skip-invalid"], in: folder)
        #expect(result.status == 0)
        #expect(
            result.stderr
                == "warning: points.csv: skipped 2 invalid rows (line 3: latitude 91.0 is outside -90…90; line 4: longitude nan is not a finite number; expected -180…180)\n"
        )
        let features = try #require(try json(result.stdout).object?["features"]?.array)
        #expect(features.count == 1)
        #expect(features[0].object?["properties"]?.object?["point_count"] == .number(2))
    }

    @Test(arguments: [
        (["--zoom", "3"], "Missing expected argument '--input <file>'"),
        (["--input", "x.csv"], "give --zoom Z (or --tile Z/X/Y)"),
        (["--input", "x.csv", "--zoom", "30"], "--zoom must be in 0…22, got 30"),
        (
            ["--input", "x.csv", "--tile", "2/4/0"],
            "Error: The value '2/4/0' is invalid for '--tile <z/x/y>'\n"
                + "Help:  --tile <z/x/y>  Print supercluster's JSON for tile z/x/y instead, 0 ≤ z ≤ 22 and 0 ≤ x, y < 2^z.\n"
        ),
        (
            ["--input", "x.csv", "--zoom", "1", "--bbox", "1,2,3"],
            "Error: The value '1,2,3' is invalid for '--bbox <w,s,e,n>'\n"
                + "Help:  --bbox <w,s,e,n>  Bounding box west,south,east,north in degrees, -90 ≤ south ≤ north ≤ 90; longitudes wrap, "
                + "west > east crosses the antimeridian (default: the whole world).\n"
        ),
        (["--input", "missing.csv", "--zoom", "1"], "missing.csv: cannot read the file (no such file)"),
        (
            ["--input", "x.txt", "--zoom", "1"],
            "x.txt: unknown input format; expected .geojson, .json, .csv, .tsv or .plist, or a GeoJSON sequence's .geojsonl, "
                + ".geojsons, .ndjson or .jsonl (or give --format)"
        ),
        (["--input", "x.csv", "--zoom", "1", "--radius", "-5"], "--radius must be a positive number"),
        (["--input", "x.csv", "--zoom", "1", "--buffer", "64"], "--buffer needs --tile Z/X/Y"),
        (
            ["--input", "x.csv", "--tile", "0/0/0", "--tile-extent", "0"],
            "--tile-extent must be a positive number up to 16777216, got 0"
        ),
        (
            ["--input", "x.csv", "--tile", "0/0/0", "--buffer", "-1"],
            "--buffer must be a number ≥ 0 up to 16777216, got -1"
        ),
    ])
    func badUsageExitsTwo(arguments: [String], message: String) throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("lat,lon\n1,2\n".utf8).write(to: folder.appendingPathComponent("x.csv"))
        try Data("lat,lon\n1,2\n".utf8).write(to: folder.appendingPathComponent("x.txt"))
        let result = try CommandResult.run(["cluster"] + arguments, in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    // MARK: --grid

    var aegean: String { packageRoot.appendingPathComponent("Examples/aegean.csv").path }

    /// A feature's points: a cluster's point_count, 1 for a single point.
    func pointCount(_ feature: JSONValue) -> Int {
        Int(feature.object?["properties"]?.object?["point_count"]?.number ?? 1)
    }

    @Test func gridCountsEveryPointOfTheBoxOnce() throws {
        let result = try CommandResult.run(
            [
                "cluster", "--input", aegean, "--grid", "64", "--zoom", "6", "--bbox", "22,35,29,41",
                "--category", "country",
            ], in: packageRoot)
        #expect(result.status == 0, "\(result.stderr)")
        let collection = try #require(try json(result.stdout).object)
        #expect(collection["type"] == .string("FeatureCollection"))
        let features = try #require(collection["features"]?.array)
        let points = try PointReader(categoryProperty: "country").read(contentsOf: URL(fileURLWithPath: aegean)).points
        let inBox = points.filter { point in
            point.location.map { (22...29).contains($0.longitude) && (35...41).contains($0.latitude) } ?? false
        }
        #expect(features.reduce(0) { $0 + pointCount($1) } == inBox.count)
        let expected = ViewportGridClusterer(points: points, cellSize: 64).clusters(
            west: 22, south: 35, east: 29, north: 41, zoom: 6)
        #expect(features.count == expected.count)
        var cells = Set<[Double]>()
        for feature in features {
            let properties = try #require(feature.object?["properties"]?.object)
            if properties["cluster"] == .bool(true) {
                let cell = try #require(properties["cell"]?.array).compactMap(\.number)
                #expect(cells.insert(cell).inserted, "one cluster per cell")
                let categories = try #require(properties["categories"]?.object)
                #expect(
                    categories.keys.reduce(0) { $0 + (categories[$1]?.number ?? 0) }
                        == properties["point_count"]?.number)
                #expect(pointCount(feature) >= 2)
            } else {
                // A cell of one point is that point, as it came.
                #expect(Set(properties.keys) == ["name", "country"])
                let point = try #require(points.first { $0.properties["name"] == properties["name"] })
                #expect(
                    feature.object?["geometry"]?.object?["coordinates"]
                        == point.location.map { .array([.number($0.longitude), .number($0.latitude)]) })
            }
        }
        #expect(features.contains { $0.object?["properties"]?.object?["cluster"] == nil })
    }

    @Test func gridCellsArePixelsAtTheZoom() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 0.01° apart: 14.6 px at zoom 11 (256·2^11 px for 360°), 29.1 px at zoom 12, 58.3 px at zoom 13; the first
        // point is on a cell's west edge (longitude 0 is world x 0.5), so they share a cell whenever it is wider than
        // that.
        try Data("lat,lon\n0,0\n0,0.01\n".utf8).write(to: folder.appendingPathComponent("pair.csv"))
        func features(zoom: String, cell: String) throws -> [JSONValue] {
            let result = try CommandResult.run(
                ["cluster", "--input", "pair.csv", "--grid", cell, "--zoom", zoom, "--bbox", "-1,-1,1,1"], in: folder)
            #expect(result.status == 0, "\(result.stderr)")
            return try #require(try json(result.stdout).object?["features"]?.array)
        }
        #expect(try features(zoom: "11", cell: "16").count == 1)
        #expect(try features(zoom: "11", cell: "8").count == 2)
        #expect(try features(zoom: "12", cell: "32").count == 1)
        #expect(try features(zoom: "13", cell: "32").count == 2)
        #expect(try features(zoom: "13", cell: "64").count == 1)
    }

    @Test func gridBoxMayCrossTheAntimeridian() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("lat,lon\n-17,178.4\n-17,178.5\n-13.8,-171.8\n0,0\n".utf8).write(
            to: folder.appendingPathComponent("pacific.csv"))
        for box in ["170,-30,-170,0", "-190,-30,-170,0"] {
            let result = try CommandResult.run(
                ["cluster", "--input", "pacific.csv", "--grid", "64", "--zoom", "4", "--bbox", box], in: folder)
            #expect(result.status == 0, "\(result.stderr)")
            let features = try #require(try json(result.stdout).object?["features"]?.array)
            #expect(features.map(pointCount) == [2, 1], "\(box): Fiji's pair west of the line first, then Samoa")
        }
    }

    @Test(arguments: [
        (["--grid", "64", "--zoom", "3"], "Error: --grid needs --bbox W,S,E,N: the view cut into cells\n"),
        (["--grid", "64", "--bbox", "0,0,10,10"], "Error: --grid needs --zoom Z and --bbox W,S,E,N\n"),
        (
            ["--grid", "0.5", "--zoom", "3", "--bbox", "0,0,10,10"],
            "Error: --grid must be a cell size of 1 pixel or more, got 0.5\n"
        ),
        (
            ["--grid", "64", "--tile", "0/0/0"],
            "Error: --grid and --tile cannot be combined: give --grid CELL with --zoom and --bbox\n"
        ),
        (
            ["--grid", "64", "--zoom", "3", "--bbox", "0,0,10,10", "--from-zoom", "2"],
            "Error: --from-zoom cannot be combined with --grid: the change is told between supercluster's clusters\n"
        ),
        (
            ["--grid", "64", "--zoom", "3", "--bbox", "0,0,10,10", "--from-zoom", "2", "--from-bbox", "0,0,5,5"],
            "Error: --from-zoom and --from-bbox cannot be combined with --grid: the change is told between supercluster's clusters\n"
        ),
        (
            ["--grid", "64", "--zoom", "3", "--bbox", "0,0,10,10", "--radius", "60"],
            "Error: --radius cannot be combined with --grid: it sets supercluster's clustering, and a grid cell takes every point in it\n"
        ),
        (
            ["--grid", "64", "--zoom", "3", "--bbox", "0,0,10,10", "--min-points", "3", "--group-by", "kind"],
            "Error: --min-points, --group-by cannot be combined with --grid: they set supercluster's clustering, and a grid cell takes every point in it\n"
        ),
        (
            ["--tile", "0/0/0", "--from-zoom", "2"],
            "Error: --from-zoom cannot be combined with --tile: the change is told between two views of --zoom and --bbox\n"
        ),
        (["--zoom", "3", "--from-zoom", "23"], "Error: --from-zoom must be in 0…22, got 23\n"),
    ])
    func badCombinationsAreRefused(arguments: [String], message: String) throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("lat,lon,kind\n1,2,a\n".utf8).write(to: folder.appendingPathComponent("x.csv"))
        let result = try CommandResult.run(["cluster", "--input", "x.csv"] + arguments, in: folder)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
        #expect(result.stderr.contains("Usage: declutter cluster"), "\(result.stderr)")
    }

    // MARK: --from-zoom, --from-bbox

    var airports: String { packageRoot.appendingPathComponent("Examples/airports.csv").path }

    /// A part of the change (`keep`, `add`, `remove`) as a set of cluster ids and one of point positions.
    func part(_ change: JSONObject, _ name: String) throws -> (
        count: Int, points: Int, clusters: Set<Int>, singles: Set<Int>
    ) {
        let part = try #require(change[name]?.object)
        let clusters = try #require(part["clusters"]?.array).compactMap(\.number).map { Int($0) }
        let singles = try #require(part["points"]?.array).compactMap(\.number).map { Int($0) }
        return (Int(part["count"]?.number ?? -1), Int(part["point_count"]?.number ?? -1), Set(clusters), Set(singles))
    }

    func change(_ arguments: [String]) throws -> JSONObject {
        let result = try CommandResult.run(["cluster", "--input", airports] + arguments, in: packageRoot)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("}\n") && result.stdout.components(separatedBy: "\n").count == 2, "one line")
        return try #require(try json(result.stdout).object)
    }

    @Test func theSameViewKeepsEverything() throws {
        let result = try change(["--zoom", "3", "--bbox", "-10,35,30,60", "--from-zoom", "3"])
        let shown = try #require(
            try json(
                try CommandResult.run(
                    ["cluster", "--input", airports, "--zoom", "3", "--bbox", "-10,35,30,60"],
                    in: packageRoot
                ).stdout
            ).object?["features"]?.array)
        let keep = try part(result, "keep")
        #expect(keep.count == shown.count && keep.count > 0)
        #expect(keep.points == shown.reduce(0) { $0 + pointCount($1) })
        #expect(
            keep.clusters
                == Set(shown.compactMap { $0.object?["properties"]?.object?["cluster_id"]?.number }.map { Int($0) }))
        #expect(try part(result, "add").count == 0)
        #expect(try part(result, "remove").count == 0)
        #expect(result["from"] == result["to"])
        #expect(
            result["to"]
                == .object(
                    JSONObject([
                        ("zoom", .number(3)), ("bbox", .array([-10, 35, 30, 60].map(JSONValue.number))),
                        ("count", .number(Double(keep.count))), ("point_count", .number(Double(keep.points))),
                    ])))
    }

    @Test func aZoomInRemovesClustersAndAddsTheirChildren() throws {
        let result = try change(["--zoom", "4", "--from-zoom", "3"])
        let points = try PointReader().read(contentsOf: URL(fileURLWithPath: airports)).points
        let index = ClusterIndex(
            points: points, options: ClusterOptions(radius: 40, extent: 512, minZoom: 0, maxZoom: 16, minPoints: 2))
        let removed = try part(result, "remove"), added = try part(result, "add"), kept = try part(result, "keep")
        #expect(removed.singles.isEmpty, "a zoom in splits clusters; points stay")
        #expect(!removed.clusters.isEmpty)
        let children = try removed.clusters.flatMap { try index.children(of: $0) }
        #expect(Set(children.compactMap(\.clusterId)) == added.clusters)
        #expect(Set(children.compactMap(\.pointIndex)) == added.singles)
        #expect(removed.points == added.points, "the world shows every point at both zooms")
        #expect(kept.points + added.points == points.count)
        let from = try #require(result["from"]?.object), to = try #require(result["to"]?.object)
        #expect(
            from["point_count"] == .number(Double(points.count)) && to["point_count"] == .number(Double(points.count)))
        #expect(from["count"] == .number(Double(kept.count + removed.count)))
        #expect(to["count"] == .number(Double(kept.count + added.count)))
        #expect(from["bbox"] == .array([-180, -90, 180, 90].map(JSONValue.number)))
    }

    @Test func aPanKeepsWhatStaysInView() throws {
        let result = try change(["--zoom", "5", "--bbox", "0,40,20,55", "--from-bbox", "-10,40,10,55"])
        let kept = try part(result, "keep"), added = try part(result, "add"), removed = try part(result, "remove")
        #expect(kept.count > 0 && added.count > 0 && removed.count > 0)
        #expect(kept.clusters.isDisjoint(with: added.clusters) && kept.clusters.isDisjoint(with: removed.clusters))
        let from = try #require(result["from"]?.object)
        #expect(from["zoom"] == .number(5), "the zoom defaults to --zoom")
        #expect(from["bbox"] == .array([-10, 40, 10, 55].map(JSONValue.number)))
    }

    @Test func pointsAreNamedByTheirIds() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let geojson =
            #"{"type":"FeatureCollection","features":["#
            + #"{"type":"Feature","id":"a","properties":{},"geometry":{"type":"Point","coordinates":[10,50]}},"#
            + #"{"type":"Feature","id":"b","properties":{},"geometry":{"type":"Point","coordinates":[10.01,50]}},"#
            + #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[-70,-30]}}]}"#
        try Data(geojson.utf8).write(to: folder.appendingPathComponent("points.geojson"))
        let result = try CommandResult.run(
            ["cluster", "--input", "points.geojson", "--from-zoom", "2", "--zoom", "16"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let change = try #require(try json(result.stdout).object)
        #expect(change["keep"]?.object?["points"] == .array([.number(2)]), "no id: its position")
        #expect(change["add"]?.object?["points"] == .array([.string("a"), .string("b")]))
        #expect(change["add"]?.object?["point_count"] == .number(2))
        #expect(change["remove"]?.object?["clusters"]?.array?.count == 1)
        #expect(change["remove"]?.object?["point_count"] == .number(2))
    }

    // MARK: --leaves, --children, --expansion-zoom

    /// The placed tiles of the airports by country at zooms 0–8, as `declutter tiles --category country --max-zoom 8`
    /// makes them.
    func placedAirports() throws -> PlacedTileset {
        let read = try PointReader(categoryProperty: "country").read(contentsOf: URL(fileURLWithPath: airports))
        let job = try TilesetJob(
            points: read.points, style: try StyleLocator.loadCheckingFont("default"), categoryProperty: "country",
            keepingIdentifiers: false)
        return try PlacedTileset(placing: job.points, style: job.style, zooms: 0...8)
    }

    @Test func aPlacedClusterAnswersItsLeavesChildrenAndExpansionZoomAsTheTilesDo() throws {
        let tileset = try placedAirports()
        // The biggest cluster of zoom 3.
        let cluster = try #require(
            tileset.features(zoom: 3).filter { $0.clusterID != nil }.max { $0.pointCount < $1.pointCount })
        let id = try #require(cluster.clusterID)
        let options = ["--category", "country", "--max-zoom", "8"]
        let leaves = try CommandResult.run(
            ["cluster", "--input", airports, "--leaves", "\(id)", "--limit", "7", "--offset", "3"] + options,
            in: packageRoot)
        #expect(leaves.status == 0, "\(leaves.stderr)")
        #expect(try json(leaves.stdout) == (try tileset.leavesGeoJSON(of: id, limit: 7, offset: 3)))
        let features = try #require(try json(leaves.stdout).object?["features"]?.array)
        #expect(features.count == min(7, cluster.pointCount - 3))

        let children = try CommandResult.run(
            ["cluster", "--input", airports, "--children", "\(id)"] + options, in: packageRoot)
        let childFeatures = try #require(try json(children.stdout).object?["features"]?.array)
        let counts = childFeatures.map { $0.object?["properties"]?.object?["point_count"]?.number ?? 1 }
        #expect(Int(counts.reduce(0, +)) == cluster.pointCount, "the children hold the cluster's points")

        let expansion = try CommandResult.run(
            ["cluster", "--input", airports, "--expansion-zoom", "\(id)"] + options, in: packageRoot)
        #expect(
            try json(expansion.stdout)
                == .object(JSONObject([("expansion_zoom", .number(Double(try tileset.expansionZoom(of: id))))])))

        let unknown = try CommandResult.run(
            ["cluster", "--input", airports, "--leaves", "31"] + options, in: packageRoot)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.hasPrefix("Error: --leaves 31: no cluster of the placed tiles of zooms 0…8 has this id"))
    }

    // MARK: --aggregate

    /// Four points of Paris whose `pop` is 1, 2, x and 4: every cluster of all four carries sum 7, mean 7/3, least
    /// 1, greatest 4 and a count of 3, in supercluster's clusters and in the placed tiles' alike, with one warning.
    @Test func aggregatesAreWorkedOverTheClustersMembers() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("lat,lon,kind,pop\n48.85,2.35,a,1\n48.851,2.351,a,2\n48.852,2.352,b,x\n48.853,2.353,b,4\n".utf8).write(
            to: folder.appendingPathComponent("pop.csv"))
        let aggregates = [
            "--aggregate", "total=sum:pop", "--aggregate", "avg=mean:pop", "--aggregate", "lo=min:pop", "--aggregate",
            "hi=max:pop", "--aggregate", "n=count:pop",
        ]
        let expected: [String: Double] = ["total": 7, "avg": 7.0 / 3, "lo": 1, "hi": 4, "n": 3]
        let warning =
            "warning: --aggregate: 1 of 4 points have no number in \"pop\"; total, avg, lo, hi, n leave them out\n"
        for arguments in [["--zoom", "0"], ["--children", "0", "--max-zoom", "3"]] {
            let result = try CommandResult.run(["cluster", "--input", "pop.csv"] + arguments + aggregates, in: folder)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr == warning)
            let features = try #require(try json(result.stdout).object?["features"]?.array)
            #expect(features.count == 1)
            let properties = try #require(features.first?.object?["properties"]?.object)
            #expect(properties["point_count"]?.number == 4)
            for (name, value) in expected { #expect(properties[name]?.number == value, "\(name) with \(arguments)") }
        }
        let render = try CommandResult.run(
            [
                "render", "--input", "pop.csv", "--zoom", "3", "--center", "48.85,2.35", "--size", "300x200",
                "--output",
                "pop.png", "--layout", "pop.json", "--aggregate", "total=sum:pop",
            ], in: folder)
        #expect(render.status == 0, "\(render.stderr)")
        let layout = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("pop.json")))
        let annotations = (layout as? [String: Any])?["annotations"] as? [[String: Any]]
        #expect(annotations?.count == 1)
        #expect((annotations?.first?["aggregates"] as? [String: Any])?["total"] as? Double == 7)
    }

    /// A misspelt property gave every cluster an empty value and exited 0 with a warning; like `--category` it is
    /// refused now (exit 2, nothing written), naming the properties the points have.
    @Test func anAggregateOfAPropertyNoPointHasIsRefused() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("lat,lon,kind,pop\n48.85,2.35,a,1\n48.851,2.351,a,2\n".utf8).write(
            to: folder.appendingPathComponent("pop.csv"))
        let message =
            "Error: --aggregate total=sum:popp: pop.csv: no point has the property \"popp\" to aggregate; its points have "
        for command in [
            ["cluster", "--input", "pop.csv", "--zoom", "0"],
            ["render", "--input", "pop.csv", "--size", "300x200", "--output", "pop.png", "--layout", "pop.json"],
            ["tiles", "--input", "pop.csv", "--max-zoom", "2", "--output", "tiles"],
        ] {
            let result = try CommandResult.run(command + ["--aggregate", "total=sum:popp"], in: folder)
            #expect(result.status == 2, "\(command[0]): \(result.stderr)")
            #expect(result.stderr.hasPrefix(message), "\(command[0]): \(result.stderr)")
            #expect(result.stderr.contains("(did you mean \"pop\"?)"), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(written == ["pop.csv"])
    }
}
