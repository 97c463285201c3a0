import DeclutterClustering
import DeclutterCommandLine
import DeclutterGeometry
import DeclutterMap
import DeclutterPlacement
import DeclutterRender
import DeclutterServer
import DeclutterStyle
import DeclutterTiles
import Foundation
import Testing

/// `declutter tiles`: the files each output kind gets, what tiles.json and style.json say, and refusals that exit 2
/// and write nothing. Decoding every tile with independent readers is scripts/tiles-consumers' job.
@Suite struct TilesCommandTests {
    /// `declutter tiles` of the TANDm sample; without the basemap unless asked, as writing it takes most of a run.
    func tiles(_ arguments: [String], in folder: URL, basemap: Bool = false) throws -> CommandResult {
        try CommandResult.run(
            ["tiles", "--input", tandmPlist] + arguments + (basemap ? [] : ["--no-basemap"]), in: folder)
    }

    func json(_ url: URL) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
    }

    /// A base style that cannot be merged is refused naming the file (and, for bad JSON, where), before any tile is
    /// made.
    @Test(arguments: [
        (
            #"{"version":8,"sources":{},"layers":["#,
            "base.json: not valid JSON: line 1, column 37: unexpected end of the text"
        ),
        (
            #"{"version":7,"sources":{},"layers":[]}"#,
            "base.json: expected a MapLibre style of version 8, got version 7"
        ),
        ("[]", "base.json: expected a MapLibre style, a JSON object"),
    ])
    func aBaseStyleThatIsNoStyleIsRefusedNamingTheFile(style: String, message: String) throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(style.utf8).write(to: folder.appendingPathComponent("base.json"))
        let result = try tiles(["--base-style", "base.json", "--output", "t.pmtiles"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("Error: --base-style " + message), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["base.json"])
    }

    @Test func aFolderHoldsTilesSpriteSheetAndStyle() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try tiles(["--output", "site", "--base-url", "https://maps.example.org/cycles/"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout
                == "wrote site: 16 tiles (0.0 MB of vector tiles), zooms 0…14, 65 points; with sprite.png, sprite.json, "
                + "sprite@2x.png, sprite@2x.json, glyphs/ (1 glyph range), style.json (15 sprite names)\n")
        let site = folder.appendingPathComponent("site")
        let top = try FileManager.default.contentsOfDirectory(atPath: site.path).sorted()
        #expect(
            top == [
                "0", "1", "10", "11", "12", "13", "14", "2", "3", "4", "5", "6", "7", "8", "9", "glyphs", "sprite.json",
                "sprite.png",
                "sprite@2x.json", "sprite@2x.png", "style.json", "tiles.json",
            ])
        // The counts' font, in the glyph range MapLibre asks for first.
        #expect(
            try FileManager.default.contentsOfDirectory(
                atPath: site.appendingPathComponent("glyphs/DejaVu Sans Bold").path) == ["0-255.pbf"])
        // All 65 points lie in one tile down to zoom 14, and in one world copy: one tile a zoom, plus one at zoom 14.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: site.appendingPathComponent("0/0").path) == ["0.pbf"])
        let tileJSON = try json(site.appendingPathComponent("tiles.json"))
        #expect(tileJSON["tilejson"] as? String == "3.0.0")
        // Named for its input, as tippecanoe names a tileset, not for the marker style.
        #expect(tileJSON["name"] as? String == "tandm-Data")
        // Absolute, at the base URL: MapLibre resolves no relative template in a TileJSON.
        #expect(tileJSON["tiles"] as? [String] == ["https://maps.example.org/cycles/{z}/{x}/{y}.pbf"])
        let layer = (tileJSON["vector_layers"] as? [[String: Any]])?.first
        #expect(layer?["id"] as? String == "points")
        #expect(
            layer?["fields"] as? [String: String] == [
                "bicycle": "Number", "cluster": "Boolean", "cluster_id": "Number", "clustering_identifier": "String",
                "expansion_zoom": "Number",
                "hidden_count": "Number", "label_size": "Number", "point_count": "Number",
                "point_count_abbreviated": "String", "sprite": "String",
                "tricycle": "Number", "type": "String", "unicycle": "Number",
            ])
        let style = try json(site.appendingPathComponent("style.json"))
        #expect(style["sprite"] as? String == "https://maps.example.org/cycles/sprite")
        #expect(style["glyphs"] as? String == "https://maps.example.org/cycles/glyphs/{fontstack}/{range}.pbf")
        let source = (style["sources"] as? [String: Any])?["declutter"] as? [String: Any]
        #expect(source?["tiles"] as? [String] == ["https://maps.example.org/cycles/{z}/{x}/{y}.pbf"])
        #expect(source?["maxzoom"] as? Int == 14)
        // --no-basemap: the one source, and no basemap layer.
        #expect((style["sources"] as? [String: Any])?.keys.sorted() == ["declutter"])
        #expect(
            (style["layers"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [
                "background", "markers", "clusters",
            ])
        // The map opens on the points: TANDm's 65 lie within about 600 m.
        #expect(style["zoom"] as? Double == 14)
        // Three balloons and a ring per split of the tricycle-bicycle group (shares in tenths) and the unicycles', in
        // TANDm's one size: counts are text now, so the sheet no longer holds an icon per count step.
        let sprites = try json(site.appendingPathComponent("sprite.json"))
        #expect(sprites.count == 15)
        #expect(sprites.keys.contains("ring-2-tricycle50-bicycle50"))
    }

    /// supercluster's tiles, as before placement: the same fields as supercluster's, an icon per count step, no glyphs.
    /// `--max-zoom auto` on the 300 airports: nine in ten of their nearest-neighbour distances span the default
    /// style's 28-px balloon first at zoom 6, but the guess goes no lower than zoom 10, where positions are kept to
    /// 9.6 m (at zoom 6, to 153 m, and an airport stood up to 76 m from its place when zoomed in); the folder's
    /// estimate counts the tiles holding points. A grid of points 0.001° apart is parted at zoom 15 by its spacing alone.
    @Test func autoMaxZoomAndTheFolderEstimateAreSaid() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let airports = packageRoot.appendingPathComponent("Examples/airports.csv").path
        let result = try CommandResult.run(
            [
                "tiles", "--input", airports, "--category", "country", "--max-zoom", "auto", "--no-basemap", "--output",
                "site",
            ],
            in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "--max-zoom auto: 10 (nine points in ten stand 456 px or more from their nearest neighbour there, a 28 "
                    + "px marker's width or more already; no lower, so that points stand within 5 m of their place where "
                    + "MapLibre zooms in beyond it)\n"), "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "tiles: a folder of about 1028 tile files (the tiles holding points at zooms 0…10), at least 4.2 MB on disk at 4 KiB a file;"
            ), "\(result.stderr)")
        #expect(result.stdout.hasPrefix("wrote site: 1098 tiles"), "\(result.stdout)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("site/10").path))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("site/11").path))
        // The legend a page can show: the countries' colours, every airport counted once.
        let style = try json(folder.appendingPathComponent("site/style.json"))
        let legend = try #require((style["metadata"] as? [String: Any])?["declutter:legend"] as? [String: Any])
        #expect(legend["title"] as? String == "country")
        let rows = try #require(legend["rows"] as? [[String: Any]])
        #expect(rows.count > 1)
        #expect(rows.compactMap { $0["count"] as? Int }.reduce(0, +) == 300)
        #expect(rows.allSatisfy { ($0["color"] as? String)?.hasPrefix("#") == true })
        var grid = "lat,lon\n"
        for row in 0..<20 {
            for column in 0..<20 { grid += "\(48 + Double(row) / 1000),\(10 + Double(column) / 1000)\n" }
        }
        try Data(grid.utf8).write(to: folder.appendingPathComponent("grid.csv"))
        let spaced = try CommandResult.run(
            ["tiles", "--input", "grid.csv", "--max-zoom", "auto", "--no-basemap", "--output", "grid.pmtiles"],
            in: folder)
        #expect(spaced.status == 0, "\(spaced.stderr)")
        #expect(
            spaced.stderr.hasPrefix(
                "--max-zoom auto: 15 (nine points in ten stand 47 px or more from their nearest neighbour there, a 28 "
                    + "px marker's width or more)\n"), "\(spaced.stderr)")
    }

    @Test func superclusterTilesKeepCountIcons() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try tiles(["--output", "site", "--placement", "supercluster"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout
                == "wrote site: 16 tiles (0.0 MB of vector tiles), zooms 0…14, 65 points; with sprite.png, sprite.json, "
                + "sprite@2x.png, sprite@2x.json, style.json (1215 sprite names)\n")
        let style = try json(folder.appendingPathComponent("site/style.json"))
        #expect(style["glyphs"] == nil)
    }

    /// The basemap beside a PMTiles archive, and drawn under the clusters by its style with the place names' glyphs.
    @Test func theBasemapGoesBesideTheArchiveAndUnderTheClusters() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try tiles(["--output", "cycles.pmtiles"], in: folder, basemap: true)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("; and the basemap, cycles-basemap.pmtiles: "))
        #expect(result.stdout.hasSuffix("), zooms 0…8\n"))
        // A folder's estimate counts the basemap's tiles with the clusters', from above: every tile written is one.
        let written = try #require(
            result.stdout.components(separatedBy: "cycles-basemap.pmtiles: ").last?.split(separator: " ").first
                .flatMap { Int($0) })
        var job = try TilesetJob(
            points: [ClusterPoint(longitude: 0, latitude: 0)], style: try StyleLocator.loadCheckingFont("default"),
            categoryProperty: nil, keepingIdentifiers: false)
        job.basemap = true
        let estimate = try #require(job.estimatedBasemapTiles())
        #expect(estimate.zooms == 0...8 && estimate.count >= written && estimate.count < written * 5 / 4)
        job.basemap = false
        #expect(job.estimatedBasemapTiles() == nil)
        let basemap = try Data(contentsOf: folder.appendingPathComponent("cycles-basemap.pmtiles"))
        #expect(basemap.prefix(7) == Data("PMTiles".utf8))
        // The whole world's land, water, borders and names: some megabytes, within 40.
        #expect((5_000_000...40_000_000).contains(basemap.count))
        let style = try json(folder.appendingPathComponent("cycles-style.json"))
        let source = (style["sources"] as? [String: Any])?["basemap"] as? [String: Any]
        #expect(source?["url"] as? String == "pmtiles://http://localhost:8000/cycles-basemap.pmtiles")
        let ids = (style["layers"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
        #expect(
            ids == [
                "background", "basemap-land", "basemap-lakes", "basemap-rivers", "basemap-states", "basemap-countries",
                "basemap-places", "markers", "clusters",
            ])
        // The names' font beside the counts', with the ranges their letters need (Ł, ố, …).
        let ranges = try FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent("cycles-glyphs/DejaVu Sans").path
        ).sorted()
        #expect(ranges == ["0-255.pbf", "256-511.pbf", "512-767.pbf", "7680-7935.pbf", "8192-8447.pbf"])
    }

    @Test(arguments: ["mbtiles", "pmtiles"])
    func anArchiveHasItsSpriteSheetAndStyleBesideIt(format: String) throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try tiles(["--output", "cycles.\(format)", "--max-zoom", "10"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
                "cycles-glyphs", "cycles-sprite.json", "cycles-sprite.png", "cycles-sprite@2x.json",
                "cycles-sprite@2x.png", "cycles-style.json",
                "cycles.\(format)",
            ])
        let style = try json(folder.appendingPathComponent("cycles-style.json"))
        #expect(style["sprite"] as? String == "http://localhost:8000/cycles-sprite")
        let source = (style["sources"] as? [String: Any])?["declutter"] as? [String: Any]
        if format == "pmtiles" {
            #expect(source?["url"] as? String == "pmtiles://http://localhost:8000/cycles.pmtiles")
        } else {
            #expect(source?["url"] as? String == "http://localhost:8000/cycles.json")
        }
        let archive = try Data(contentsOf: folder.appendingPathComponent("cycles.\(format)"))
        #expect(archive.prefix(7) == Data((format == "pmtiles" ? "PMTiles" : "SQLite ").utf8))
    }

    /// `--name` names the tileset in tiles.json.
    @Test func theTilesetTakesTheNameGiven() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try tiles(
            ["--output", "site", "--max-zoom", "2", "--name", "Tandems of San Francisco"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let tileJSON = try json(folder.appendingPathComponent("site/tiles.json"))
        #expect(tileJSON["name"] as? String == "Tandems of San Francisco")
    }

    @Test(arguments: [
        (["--output", "taken"], "Error: cannot write taken: the folder already exists; remove it or name a new one"),
        (
            ["--output", "x", "--max-zoom", "30"],
            "Error: --min-zoom and --max-zoom must be in 0…21 (0…22 with --placement supercluster) with min ≤ max, got 0 and 30"
        ),
        (
            ["--output", "x", "--max-zoom", "22"],
            "Error: --min-zoom and --max-zoom must be in 0…21 (0…22 with --placement supercluster) with min ≤ max, got 0 and 22"
        ),
        (
            ["--output", "x", "--max-zoom", "23", "--placement", "supercluster"],
            "Error: --min-zoom and --max-zoom must be in 0…22 with min ≤ max, got 0 and 23"
        ),
        (
            ["--output", "x", "--style", "airports"],
            "Error: point 0: category \"tricycle\" is not in style \"Airports\"; expected one of: america, europe, africa, asia, oceania, other"
        ),
        (
            ["--output", "x", "--base-url", "maps/"],
            "Error: base URL: expected an absolute http, https or file URL (MapLibre needs absolute sprite and tile URLs), got \"maps/\""
        ),
        (["--output", "x", "--buffer", "5000"], "Error: --buffer must be in 0…4096, got 5000"),
        (
            ["--output", "missing/tiles.pmtiles"],
            "Error: cannot write missing/tiles.pmtiles: the folder missing does not exist"
        ),
        (
            ["--output", "notes.txt"],
            "Error: cannot write notes.txt: is a file; tiles go to a .mbtiles or .pmtiles file, or to a new folder"
        ),
        (
            ["--output", "tiles.zip"],
            "Error: cannot write tiles.zip: \".zip\" is not a tileset format; tiles go to a .mbtiles or .pmtiles file, or to a new folder"
        ),
    ])
    func badUsageExitsTwoAndWritesNothing(arguments: [String], message: String) throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("taken"), withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let result = try tiles(arguments, in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.components(separatedBy: "\n").first == message)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["notes.txt", "taken"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("taken").path) == [])
        #expect(try Data(contentsOf: folder.appendingPathComponent("notes.txt")) == Data("keep".utf8))
    }

    /// Points about the antimeridian open the map there: the style's and the TileJSON's centre lie between Fiji and
    /// Samoa, not on the far side of the world in the middle of their longitudes' -180…180 box, and the style's zoom
    /// fits their span the shorter way round.
    @Test func pointsAboutTheAntimeridianOpenThere() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let rows = ["-18.14,178.44", "-21.14,-175.20", "-13.83,-171.76", "-8.52,179.19", "-17.75,177.45"]
        try Data(("lat,lon\n" + rows.joined(separator: "\n") + "\n").utf8).write(
            to: folder.appendingPathComponent("islands.csv"))
        let result = try CommandResult.run(
            ["tiles", "--input", "islands.csv", "--max-zoom", "8", "--no-basemap", "--output", "site"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let style = try json(folder.appendingPathComponent("site/style.json"))
        let center = try #require(style["center"] as? [Double])
        #expect(abs(center[0]) > 170 && center[1] < -10 && center[1] > -20, "\(center)")
        #expect(style["zoom"] as? Double == 6)
        let tileJSON = try json(folder.appendingPathComponent("site/tiles.json"))
        let stated = try #require(tileJSON["center"] as? [Double])
        #expect(stated[0] == center[0] && stated[1] == center[1])
    }

    /// Points the tiles cannot show where they lie are said, as `render` says them: the South Pole's station and a
    /// latitude of 90 stand on the world's edge, and rows of zeros are most likely missing values.
    @Test func pointsBeyondWebMercatorAndAtZeroZeroAreSaid() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let rows = ["-90,0", "90,10", "0,0", "48.85,2.35", "-33.9,151.2"]
        try Data(("lat,lon\n" + rows.joined(separator: "\n") + "\n").utf8).write(
            to: folder.appendingPathComponent("edges.csv"))
        let result = try CommandResult.run(
            ["tiles", "--input", "edges.csv", "--max-zoom", "3", "--no-basemap", "--output", "edges.pmtiles"],
            in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr
                == "warning: 2 points lie beyond 85.0511° north or south, where Web Mercator maps end; the tiles show "
                + "them on the world's top or bottom edge\n"
                + "warning: 1 point lies at exactly 0°, 0°, almost always a missing value rather than a place\n")
    }

    /// Features without a geometry are skipped, as the warning says, in the tiles and in the placed queries; they
    /// stopped both with "point 1 has no coordinate".
    @Test func featuresWithoutAGeometryAreSkipped() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let features = [
            #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[10,50]}}"#,
            #"{"type":"Feature","properties":{"name":"nowhere"},"geometry":null}"#,
            #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[-74,40.7]}}"#,
        ]
        try Data((#"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}").utf8).write(
            to: folder.appendingPathComponent("stops.geojson"))
        let result = try CommandResult.run(
            ["tiles", "--input", "stops.geojson", "--max-zoom", "3", "--no-basemap", "--output", "stops.pmtiles"],
            in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "warning: stops.geojson: 1 feature has no geometry (features[1]); skipped\n")
        #expect(result.stdout.contains(", zooms 0…3, 2 points; with "), "\(result.stdout)")
        let query = try CommandResult.run(
            ["cluster", "--input", "stops.geojson", "--max-zoom", "3", "--expansion-zoom", "0"], in: folder)
        #expect(query.stderr.hasPrefix("warning: stops.geojson: 1 feature has no geometry"), "\(query.stderr)")
        #expect(!query.stderr.contains("no coordinate"), "\(query.stderr)")
    }

    @Test func noPointsIsAnError() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("lat,lon\n".utf8).write(to: folder.appendingPathComponent("empty.csv"))
        let result = try CommandResult.run(["tiles", "--input", "empty.csv", "--output", "out.pmtiles"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr == "Error: empty.csv: no points to make tiles of\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["empty.csv"])
    }

    /// A cluster's properties share one namespace: an aggregate named as a category or as the categories' property
    /// would silently replace one value by the other, and is refused; a category named as a cluster's own property
    /// cannot carry its count, and is warned about.
    @Test func clashingNamesAreRefusedOrSaid() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let csv = "lat,lon,cc,pop\n48.85,2.35,FR,100\n48.86,2.36,FR,200\n52.5,13.4,DE,300\n52.6,13.5,point_count,5\n"
        try Data(csv.utf8).write(to: folder.appendingPathComponent("p.csv"))
        let base = ["tiles", "--input", "p.csv", "--category", "cc", "--max-zoom", "2", "--no-basemap"]
        let category = try CommandResult.run(base + ["--aggregate", "FR=sum:pop", "--output", "a.pmtiles"], in: folder)
        #expect(category.status == 2)
        #expect(
            category.stderr.hasPrefix(
                "Error: --aggregate FR=sum:pop: FR is a category, whose count each cluster carries under that name; "
                    + "choose another name\n"), "\(category.stderr)")
        let property = try CommandResult.run(base + ["--aggregate", "cc=sum:pop", "--output", "a.pmtiles"], in: folder)
        #expect(property.status == 2)
        #expect(property.stderr.contains("cc is the property the categories come from"), "\(property.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["p.csv"])
        let reserved = try CommandResult.run(base + ["--output", "a.pmtiles"], in: folder)
        #expect(reserved.status == 0, "\(reserved.stderr)")
        #expect(
            reserved.stderr
                == "warning: the category \"point_count\" has the name of a property every cluster has; clusters carry "
                + "no count for it (its points are drawn and counted all the same)\n")
    }

    /// Two archives of one name in one folder would share their style, sprites and glyphs: the second is refused.
    @Test func anArchiveBesideItsTwinIsRefused() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try tiles(["--output", "cycles.pmtiles"], in: folder).status == 0)
        let style = try Data(contentsOf: folder.appendingPathComponent("cycles-style.json"))
        let twin = try tiles(["--output", "cycles.mbtiles"], in: folder)
        #expect(twin.status == 2)
        #expect(
            twin.stderr
                == "Error: --output cycles.mbtiles: cycles.pmtiles beside it has the same style, sprites and glyphs "
                + "(cycles-style.json, cycles-sprite…, cycles-glyphs/), which would be replaced for this archive; name "
                + "another file, or remove cycles.pmtiles\n")
        #expect(try Data(contentsOf: folder.appendingPathComponent("cycles-style.json")) == style)
        let text = try tiles(["--output", "cycles.txt", "--max-zoom", "1"], in: folder)
        #expect(text.status == 0)
        #expect(
            text.stderr.hasPrefix(
                "warning: --output cycles.txt does not end in .mbtiles or .pmtiles, so it is written as a folder of tiles\n"
            ), "\(text.stderr)")
    }
}
