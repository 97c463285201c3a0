import DeclutterClustering
import DeclutterCommandLine
import DeclutterGeometry
import DeclutterInput
import DeclutterMap
import DeclutterMapContent
import DeclutterPNG
import DeclutterPlacement
import DeclutterRender
import DeclutterServer
import DeclutterStaticAPI
import DeclutterStyle
import DeclutterSupport
import DeclutterTesting
import DeclutterTiles
import Foundation
import Testing

@Suite struct RenderCommandTests {
    let goldens: GoldenFiles
    init() throws { goldens = try GoldenFiles(suite: "RenderCommandTests") }

    @Test func demoRendersTandmAndAirports() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandResult.run(["demo", "--output-directory", ".", "--scale", "1"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(
            lines.first?.hasSuffix(
                "tandm.png: 390×600 pt (390×600 px), zoom 16.04, 65 points in 22 views shown (12 clusters, 10 markers)")
                == true)
        #expect(
            lines.last?.contains(
                "airports.png: 1024×560 pt (1024×560 px), zoom 2.00, 28269 of 28298 points on the map, in ") == true)
        // TANDm's unicycles (defaultLow) under the bicycle clusters are said to be hidden. No airport is under the
        // legend: it stands in the bottom-left corner, down at the margin, below Easter Island's pin (one row higher,
        // where a legend keeps clear of the attribution's row, it hid that airport).
        #expect(result.stderr == "note: tandm.png: 16 of 65 points in view are under higher-priority views\n")
        try goldens.verifyPNG(Data(contentsOf: folder.appendingPathComponent("tandm.png")), test: "demo", name: "tandm")
        try goldens.verifyPNG(
            Data(contentsOf: folder.appendingPathComponent("airports.png")), test: "demo", name: "airports")
    }

    /// The summary counts the points the map shows, not every point read: a map of three of TANDm's 65 points says so,
    /// as its layout's `points.inView` does (it said "65 points in 3 views shown"). On this 200-point map the
    /// attribution takes the bottom right, so the third point's balloon, which would stand under it, is hidden and said
    /// to be.
    @Test func summarySaysHowManyPointsAreOnTheMap() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandResult.run(
            [
                "render", "--input", tandmPlist, "--center", "37.8050,-122.4136", "--zoom", "17",
                "--size", "200x200", "--layout", "layout.json", "--output", "map.png",
            ], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout
                == "wrote map.png: 200×200 pt (200×200 px), zoom 17.00, 3 of 65 points on the map, in 2 views shown (0 clusters, 2 markers)\n"
        )
        #expect(result.stderr.hasPrefix("note: 1 of 3 points in view are under the attribution\n"), "\(result.stderr)")
        let layout = try String(contentsOf: folder.appendingPathComponent("layout.json"), encoding: .utf8)
        #expect(
            layout.contains(
                #""points":{"total":65,"inView":3,"hiddenInView":1},"attribution":{"frame":[84.455,186.523,115.545,13.477],"text":"Made with Natural Earth"}"#
            ))
    }

    @Test func rotatedMapWithLayout() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandResult.run(
            [
                "render", "--input", tandmPlist, "--size", "400x400", "--bearing", "30",
                "--layout", "layout.json", "--output", "turned.png",
            ], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        try goldens.verifyPNG(
            Data(contentsOf: folder.appendingPathComponent("turned.png")), test: "rotatedMapWithLayout",
            name: "tandm-30")
        // The layout accounts for every one of the 65 points exactly once, by input position.
        let layout =
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("layout.json")))
            as? [String: Any] ?? [:]
        #expect(layout["width"] as? Double == 400 && layout["height"] as? Double == 400)
        let annotations = layout["annotations"] as? [[String: Any]] ?? []
        let members = annotations.flatMap { ($0["members"] as? [Int]) ?? [] }.sorted()
        #expect(members == Array(0..<65))
        for annotation in annotations {
            let kind = annotation["kind"] as? String, frame = annotation["frame"] as? [Double] ?? []
            let count = (annotation["members"] as? [Int])?.count ?? 0
            #expect(kind == (count == 1 ? "marker" : "cluster"))
            #expect(
                frame.count == 4
                    && (kind == "marker" ? frame[2] == 30 && frame[3] == 40 : frame[2] == 40 && frame[3] == 40))
        }
    }

    /// The embedded basemap's detail: the Cyclades at zoom 7 with markers on some islands, whose names then give
    /// way (a name never lies under a marker), and the scale bar and attribution kept clear of names.
    @Test func aegeanOnTheEmbeddedBasemap() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let csv =
            "name,lat,lon\nMykonos,37.446,25.329\nNaxos,37.105,25.376\nParos,37.085,25.149\nThira,36.417,25.432\n"
            + "Tinos,37.538,25.163\nAmorgos,36.831,25.894\n"
        try Data(csv.utf8).write(to: folder.appendingPathComponent("cyclades.csv"))
        let result = try CommandResult.run(
            [
                "render", "--input", "cyclades.csv", "--center", "37.2,25.2", "--zoom", "7",
                "--size", "600x400", "--scale-bar", "--output", "aegean.png",
            ], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("embedded basemap"))
        try goldens.verifyPNG(
            Data(contentsOf: folder.appendingPathComponent("aegean.png")), test: "aegeanOnTheEmbeddedBasemap",
            name: "cyclades-z7")
    }

    /// Above zoom 10 the embedded basemap still draws land and water, and one line on stderr says how to add tiles.
    @Test func aboveZoomTenANoteNamesTiles() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("name,lat,lon\nPiraeus,37.94,23.64\n".utf8).write(to: folder.appendingPathComponent("p.csv"))
        let close = try CommandResult.run(
            [
                "render", "--input", "p.csv", "--center", "37.94,23.6", "--zoom", "12.3", "--size", "200x100",
                "--output", "close.png",
            ], in: folder)
        #expect(close.status == 0, "\(close.stderr)")
        let notes = close.stderr.split(separator: "\n").filter { $0.contains("embedded basemap") }
        #expect(
            notes == [
                "note: the embedded basemap has detail to zoom 10; this map is at zoom 12.3; "
                    + "add --tiles 'https://tile.openstreetmap.org/{z}/{x}/{y}.png' for more"
            ])
        // Sea west of Piraeus, not the plain background.
        let image = try RGBAImage(contentsOf: folder.appendingPathComponent("close.png"))
        #expect(Array(image.pixels[0..<4]) == [170, 211, 223, 255])
        let ten = try CommandResult.run(
            [
                "render", "--input", "p.csv", "--center", "37.94,23.6", "--zoom", "10", "--size", "200x100",
                "--output", "ten.png",
            ], in: folder)
        #expect(ten.status == 0 && !ten.stderr.contains("embedded basemap"))
    }

    /// The world's airports over the United States at zoom 4, categories from the `subd` column (the state) by census
    /// region: 13,491 points on the map, clustered under one identifier. None hides another; the six in the Caribbean
    /// whose view would stand under the attribution are hidden and said to be.
    @Test func denseRealDataStaysTrue() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let regions = [
            "blue":
                "Connecticut Maine Massachusetts New_Hampshire Rhode_Island Vermont New_Jersey New_York Pennsylvania",
            "orange":
                "Illinois Indiana Michigan Ohio Wisconsin Iowa Kansas Minnesota Missouri Nebraska North_Dakota South_Dakota",
            "green":
                "Delaware Florida Georgia Maryland North_Carolina South_Carolina Virginia District_of_Columbia West_Virginia "
                + "Alabama Kentucky Mississippi Tennessee Arkansas Louisiana Oklahoma Texas",
            "vermilion":
                "Arizona Colorado Idaho Montana Nevada New_Mexico Utah Wyoming Alaska California Hawaii Oregon Washington",
        ]
        var regionOfState: [String: String] = [:]
        for (region, states) in regions {
            for state in states.split(separator: " ") {
                regionOfState[state.replacingOccurrences(of: "_", with: " ")] = region
            }
        }
        let airports = try PointReader().read(
            contentsOf: packageRoot.appendingPathComponent("Sources/CDeclutterResources/Demo/airports.csv")
        ).points
        var csv = "lat,lon,kind\n"
        for airport in airports {
            guard let location = airport.location else { continue }
            let state = airport.properties["subd"]?.string ?? "", country = airport.properties["country"]?.string ?? ""
            csv +=
                "\(location.latitude),\(location.longitude),\(country == "US" ? regionOfState[state] ?? "grey" : "grey")\n"
        }
        try Data(csv.utf8).write(to: folder.appendingPathComponent("airports.csv"))
        let result = try CommandResult.run(
            [
                "render", "--input", "airports.csv", "--category", "kind", "--center", "38,-96", "--zoom", "4",
                "--size", "1024x640", "--layout", "layout.json", "--output", "us.png",
            ], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "note: 6 of 13491 points in view are under the attribution\n")
        let layout =
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("layout.json")))
            as? [String: Any] ?? [:]
        let points = layout["points"] as? [String: Int] ?? [:]
        #expect(points == ["total": 28298, "inView": 13491, "hiddenInView": 6])
        // No two shown views overlap: cluster circles, balloon boxes, by more than 0.05 pt.
        let shown = (layout["annotations"] as? [[String: Any]] ?? []).filter { $0["visible"] as? Bool == true }
        let shapes = shown.map { annotation -> CollisionGrid.Shape in
            let frame = annotation["frame"] as? [Double] ?? [0, 0, 0, 0]
            return annotation["kind"] as? String == "cluster"
                ? .circle(x: frame[0] + frame[2] / 2, y: frame[1] + frame[3] / 2, radius: frame[2] / 2 - 0.025)
                : .box(
                    minX: frame[0] + 0.025, minY: frame[1] + 0.025, maxX: frame[0] + frame[2] - 0.025,
                    maxY: frame[1] + frame[3] - 0.025)
        }
        let overlapping = shapes.indices.flatMap { a in
            shapes.indices.filter { $0 > a && shapes[a].intersects(shapes[$0]) }.map { (a, $0) }
        }
        #expect(overlapping.isEmpty, "\(overlapping.prefix(3))")
        #expect(shown.count > 100)
        // Every shown view stands on the map, and every point on the map but those six is in a shown view.
        #expect(
            shown.allSatisfy { annotation in
                let frame = annotation["frame"] as? [Double] ?? [0, 0, 0, 0]
                return frame[0] < 1024 && frame[1] < 640 && frame[0] + frame[2] > 0 && frame[1] + frame[3] > 0
            })
        #expect(shown.reduce(0) { $0 + (($1["members"] as? [Int])?.count ?? 0) } == 13485)
        try goldens.verifyPNG(
            Data(contentsOf: folder.appendingPathComponent("us.png")), test: "denseRealData", name: "us-airports")
    }

    /// Country codes are not the default style's categories: the six most frequent on the map take its colours, the
    /// other 228 share grey "other", 44 of them on the map; the legend counts them and no marker stands under it, the
    /// compass or the attribution, which hide 26 points and are named for it.
    @Test func categoriesFromTheDataWithALegend() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let airports = packageRoot.appendingPathComponent("Sources/CDeclutterResources/Demo/airports.csv").path
        let result = try CommandResult.run(
            [
                "render", "--input", airports, "--category", "country", "--legend", "--compass", "always",
                "--center", "50,10", "--zoom", "4", "--size", "640x480", "--layout", "layout.json",
                "--output", "europe.png",
            ], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr == """
                note: --category country: "AE" and 233 more are not categories of style "Default", so its colours go to the 6 of 234 \
                values with the most points on the map; the other 228 share "other"
                note: 26 of 2696 points in view are under the compass, the attribution and the legend

                """)
        let layout =
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("layout.json")))
            as? [String: Any] ?? [:]
        let legend = layout["legend"] as? [String: Any] ?? [:]
        let rows = legend["rows"] as? [[String: Any]] ?? []
        #expect(rows.compactMap { $0["name"] as? String } == ["DE", "FR", "GB", "IT", "ES", "SE", "other"])
        #expect(rows.compactMap { $0["count"] as? Int } == [479, 462, 245, 117, 112, 111, 1170])
        #expect(
            rows.compactMap { $0["color"] as? String } == [
                "#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#CC79A7", "#6B7280",
            ])
        #expect(rows.compactMap { $0["count"] as? Int }.reduce(0, +) == 2696)
        #expect(rows.compactMap { $0["values"] as? Int } == [44])
        #expect(legend["corner"] as? String == "topLeft")
        let box = legend["frame"] as? [Double] ?? []
        #expect(box.count == 4)
        let legendShape = CollisionGrid.Shape.box(
            minX: box[0], minY: box[1], maxX: box[0] + box[2], maxY: box[1] + box[3])
        let compass = CollisionGrid.Shape.circle(x: 640 - 8 - 15, y: 8 + 15, radius: 15)
        #expect(layout["compass"] as? [String: [Double]] == ["frame": [602, 8, 30, 30]])
        let attribution = layout["attribution"] as? [String: Any] ?? [:]
        #expect(attribution["text"] as? String == "Made with Natural Earth")
        let corner = attribution["frame"] as? [Double] ?? []
        #expect(corner == [524.455, 466.523, 115.545, 13.477])
        let attributionShape = CollisionGrid.Shape.box(minX: 524.455, minY: 466.523, maxX: 640, maxY: 480)
        let shown = (layout["annotations"] as? [[String: Any]] ?? []).filter { $0["visible"] as? Bool == true }
        #expect(shown.count == 74)
        for annotation in shown {
            let frame = annotation["frame"] as? [Double] ?? [0, 0, 0, 0]
            let shape = CollisionGrid.Shape.box(
                minX: frame[0], minY: frame[1], maxX: frame[0] + frame[2], maxY: frame[1] + frame[3])
            #expect(
                !shape.intersects(legendShape) && !shape.intersects(compass) && !shape.intersects(attributionShape),
                "\(frame)")
        }
        try goldens.verifyPNG(
            Data(contentsOf: folder.appendingPathComponent("europe.png")), test: "categoriesFromTheData",
            name: "europe-legend")
    }

    /// A `--colors-for` value no point has is warned about once, then neither coloured nor counted among the values.
    @Test func aColorsForValueNoPointHasIsLeftOut() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let rows = ["fr", "fr", "de", "it", "es"].enumerated().map {
            "\(48 + Double($0.offset)),\(2 + Double($0.offset) * 3),\($0.element)"
        }
        try Data(("lat,lon,cc\n" + rows.joined(separator: "\n") + "\n").utf8).write(
            to: folder.appendingPathComponent("cc.csv"))
        let result = try CommandResult.run(
            [
                "render", "--input", "cc.csv", "--category", "cc", "--colors-for", "fr,xx", "--basemap", "none",
                "--output", "cc.png",
            ], in: folder)
        #expect(result.status == 0)
        #expect(
            result.stderr
                == "warning: --colors-for: no point has \"xx\" as its \"cc\"\n"
                + "note: --category cc: \"de\" and 3 more are not categories of style \"Default\", so its colours go to "
                + "the 1 of 4 values named by --colors-for; the other 3 share \"other\"\n", "\(result.stderr)")
    }

    @Test func aCategoryNoPointHasIsRefused() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("lat,lon\n48.85,2.35\n48.86,2.36\n".utf8).write(to: folder.appendingPathComponent("two.csv"))
        // A column that is there but empty on every line says so.
        try Data("lat,lon,kind\n48.85,2.35,\n48.86,2.36,\n".utf8).write(to: folder.appendingPathComponent("empty.csv"))
        for (file, problem) in [
            ("two.csv", "no point has the property \"kind\" to colour it by; its points have no properties"),
            ("empty.csv", "no point has a value for the property \"kind\" to colour it by"),
        ] {
            let result = try CommandResult.run(
                ["render", "--input", file, "--category", "kind", "--basemap", "none", "--output", "two.png"],
                in: folder)
            #expect(result.status == 2)
            #expect(result.stderr == "Error: --category kind: \(file): \(problem)\n")
            #expect(FileSystem.item(atPath: folder.appendingPathComponent("two.png").path) == nil)
        }
        let bad = try CommandResult.run(
            ["render", "--input", "two.csv", "--compass", "sometimes", "--output", "two.png"], in: folder)
        #expect(bad.status == 2)
        #expect(
            bad.stderr.hasPrefix(
                "Error: --compass must be auto, always or never, got sometimes\nUsage: declutter render "))
    }

    /// A centre written LON,LAT is two valid numbers for another place: the map is drawn, and the note says where the
    /// points lie and the centre the other way round.
    @Test func anEmptyMapAtACentreSaysWhereThePointsLie() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("lat,lon\n48.85,2.35\n52.52,13.4\n".utf8).write(to: folder.appendingPathComponent("two.csv"))
        func render(at center: String) throws -> CommandResult {
            let result = try CommandResult.run(
                [
                    "render", "--input", "two.csv", "--center", center, "--zoom", "5", "--basemap", "none", "--output",
                    "two.png",
                ],
                in: folder)
            #expect(result.status == 0, "\(result.stderr)")
            return result
        }
        let swapped = try render(at: "2.35,48.85")
        #expect(
            swapped.stderr
                == "note: no point is on the map at --center 2.35,48.85 (LAT,LON); the points lie at latitudes "
                + "48.85…52.52 and longitudes 2.35…13.4; did you mean --center 48.85,2.35?\n")
        #expect(swapped.stdout.contains("0 of 2 points on the map"))
        #expect(
            try render(at: "-30,-30").stderr
                == "note: no point is on the map at --center -30,-30 (LAT,LON); the points lie at latitudes "
                + "48.85…52.52 and longitudes 2.35…13.4\n")
        #expect(try render(at: "50,8").stderr.isEmpty)
        // Latitudes beyond Web Mercator's are said as the file gives them, not as the map's edge takes them.
        try Data("lat,lon\n-90,0\n89,10\n".utf8).write(to: folder.appendingPathComponent("two.csv"))
        #expect(
            try render(at: "0,-170").stderr.hasPrefix(
                "note: no point is on the map at --center 0,-170 (LAT,LON); the points lie at latitudes -90…89 and "))
    }

    /// A map fitted to its data that is smaller than its markers says that it cuts them, where no zoom helps.
    @Test func aFittedMapTooSmallForItsMarkersSaysSo() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let rows = (0..<12).map { "\(-17.5 + Double($0 % 4) * 0.01),\(178 + Double($0 / 4) * 0.01)" }
        try Data(("lat,lon\n" + rows.joined(separator: "\n") + "\n").utf8).write(
            to: folder.appendingPathComponent("fiji.csv"))
        func render(_ size: String) throws -> CommandResult {
            try CommandResult.run(
                ["render", "--input", "fiji.csv", "--size", size, "--basemap", "none", "--output", "f.png"], in: folder)
        }
        let tiny = try render("32x32")
        #expect(tiny.status == 0)
        #expect(
            tiny.stderr.contains(
                "warning: the 32×32 pt map cuts 1 marker at its edge: its markers are up to 40×40 pt, and no zoom "
                    + "shows it whole; a larger map does\n"), "\(tiny.stderr)")
        #expect(!(try render("200x150").stderr.contains("cuts")))
    }

    @Test func pointsUnderHigherPriorityViewsAreCounted() throws {
        // TANDm's unicycles are defaultLow and cluster apart: where bicycle clusters cover them, they are hidden and
        // said so.
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandResult.run(
            [
                "render", "--input", tandmPlist, "--size", "300x200", "--center", "37.8085,-122.4150",
                "--zoom", "15", "--basemap", "none", "--layout", "layout.json", "--output", "map.png",
            ], in: folder)
        #expect(result.status == 0)
        #expect(result.stderr == "note: 14 of 47 points in view are under higher-priority views\n")
        let layout =
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("layout.json")))
            as? [String: Any] ?? [:]
        #expect(layout["points"] as? [String: Int] == ["total": 65, "inView": 47, "hiddenInView": 14])
    }

    @Test func routeOverLocalTiles() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tiles = try writeTestTiles(into: folder)
        let route = try writeGoldenGateStops(into: folder)
        let result = try CommandResult.run(
            [
                "render", "--input", "stops.geojson", "--category", "kind", "--size", "480x360", "--scale", "2",
                "--center", "37.811,-122.467", "--zoom", "14.3", "--tiles", tiles.path,
                "--attribution", "test tiles", "--polyline", route, "--circle", "37.8080,-122.4740,300",
                "--scale-bar", "--output", "route.png",
            ], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        #expect(
            result.stdout
                == "wrote route.png: 480×360 pt (960×720 px), zoom 14.30, 2 points in 2 views shown (0 clusters, 2 markers)\n"
        )
        try goldens.verifyPNG(
            Data(contentsOf: folder.appendingPathComponent("route.png")), test: "routeOverLocalTiles",
            name: "golden-gate@2x")
    }

    /// 63 tiles of 2048² px (16 MB each decoded) under an address-space limit of 768 MB: the map is drawn because
    /// tiles are decoded a few at a time. Before, all were decoded at once and the same map aborted under 800 MB
    /// (`malloc` failed at about 1 GB). Sanitized builds reserve terabytes of shadow memory, so the limit cannot
    /// apply to them.
    @Test(.disabled(if: isSanitized, "a sanitizer's shadow memory exceeds any address-space limit"))
    func largeTilesAreDecodedAFewAtATime() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let side = 2048
        let tile = try PNGEncoder(level: 1).encode(
            rgba: [UInt8](repeating: 200, count: side * side * 4), width: side, height: side)
        for x in 0..<16 {
            let column = folder.appendingPathComponent("tiles/4/\(x)")
            try FileManager.default.createDirectory(at: column, withIntermediateDirectories: true)
            for y in 0..<16 { try tile.write(to: column.appendingPathComponent("\(y).png")) }
        }
        // malloc's per-thread arenas reserve 64 MB of address space each; two keep the limit independent of the cores.
        let command =
            "ulimit -v 786432; MALLOC_ARENA_MAX=2 exec '\(declutterExecutable.path)' render --input '\(tandmPlist)' "
            + "--tiles tiles --center 0,0 --zoom 4 --size 2000x1500 --output map.png"
        let result = try CommandResult.run(["-c", command], in: folder, executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("wrote map.png: 2000×1500 pt (2000×1500 px), zoom 4.00,"))
        #expect(try RGBAImage(contentsOf: folder.appendingPathComponent("map.png")).width == 2000)
    }

    @Test func svgMapEmbedsItsTiles() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tiles = try writeTestTiles(into: folder)
        let result = try CommandResult.run(
            [
                "render", "--input", tandmPlist, "--size", "300x200", "--center", "37.8085,-122.4150",
                "--zoom", "15", "--tiles", tiles.path, "--output", "map.svg",
            ], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let svg = try String(contentsOf: folder.appendingPathComponent("map.svg"), encoding: .utf8)
        #expect(svg.contains(#"width="300px" height="200px" viewBox="0 0 300 200""#))
        // The tiles drawn into one image of the map: each tile an image of its own showed a faint line along every
        // tile edge in a viewer, which smooths each image's edges apart.
        #expect(svg.components(separatedBy: "data:image/png;base64,").count - 1 == 1)
        try goldens.verifyText(svg, test: "svgMapEmbedsItsTiles", name: "tandm-tiles")
    }

    @Test func pdfMapOverTheWorldBasemap() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandResult.run(
            [
                "render", "--input", tandmPlist, "--zoom", "3", "--basemap", "world", "--size", "600x400",
                "--output", "world.pdf",
            ], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout
                == "wrote world.pdf: 600×400 pt, zoom 3.00, 65 points in 1 view shown (1 cluster, 0 markers)\n")
        let pdf = try Data(contentsOf: folder.appendingPathComponent("world.pdf"))
        #expect(pdf.starts(with: Data("%PDF-".utf8)))
        #expect(String(decoding: pdf, as: UTF8.self).contains("/MediaBox [ 0 0 600 400 ]"))
    }

    /// Values starting with a minus sign are values, not flags: southern and western centres, turns to the left.
    @Test func negativeValuesAreRead() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandResult.run(
            [
                "render", "--input", tandmPlist, "--center", "-33.86,-151.21", "--zoom", "3", "--bearing", "-30",
                "--circle", "-33.86,-151.21,300000", "--size", "300x200", "--layout", "layout.json",
                "--output", "south.png",
            ], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let layout =
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("layout.json")))
            as? [String: Any]
        #expect(layout?["center"] as? [Double] == [-151.21, -33.86])
    }

    @Test(arguments: [
        (["--zoom", "23"], "Error: --zoom must be in 0…22, got 23"),
        (["--size", "20000x100"], "Error: --size 20000x100 at scale 1 is over the limit of 16384 px per side"),
        (
            ["--size", "9000x100", "--scale", "2"],
            "Error: --size 9000x100 at scale 2 is over the limit of 16384 px per side"
        ),
        (["--center", "37.8,-122.4"], "Error: --center needs --zoom too (or give neither, and the map fits the data)"),
        (
            ["--polyline", "_p iF"],
            "Error: polyline: character 3 is not part of an encoded polyline (expected ASCII 63…126)"
        ),
        (
            ["--tiles", "http://127.0.0.1:9/{z}/{x}/{y}.png", "--timeout", "2"],
            "Error: cannot reach the tile server http://127.0.0.1:9/{z}/{x}/{y}.png:"
        ),
        (
            ["--tiles", "/no/such/tiles"],
            "Error: tile source /no/such/tiles: expected a folder of {z}/{x}/{y}.png tiles or a template with {z}, {x} and {y}"
        ),
        (
            ["--zoom", "12", "--size", "4000x4000", "--tiles", "/tmp/{z}/{x}/{y}.png"],
            "Error: the map needs 289 tiles, more than the limit of 256; use a smaller size or a higher zoom, or raise --max-tiles"
        ),
        (
            ["--style", "default"],
            "Error: \(tandmPlist): cycles[0]: category \"tricycle\" is not in style \"Default\"; expected one of: blue, orange, green, vermilion, sky, purple, grey"
        ),
        (
            ["--circle", "37.8,-122.4"],
            "Error: The value '37.8,-122.4' is invalid for '--circle <lat,lon,metres>': expected three numbers, "
                + "LAT,LON,METRES\nHelp:  --circle <lat,lon,metres>  A circle on the ground (repeatable): LAT,LON in "
                + "degrees and a radius over 0 and up to 20,000 km in metres."
        ),
        (["--zoom", "-1"], "Error: --zoom must be in 0…22, got -1"),
        (["--max-zoom", "25"], "Error: --max-zoom must be in 0…22, got 25"),
        (["--padding", "-10"], "Error: --padding must be 0 or more points"),
    ])
    func badInputExitsTwoAndWritesNothing(arguments: [String], message: String) throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandResult.run(
            ["render", "--input", tandmPlist, "--layout", "layout.json", "--output", "map.png"] + arguments, in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func unreadableInputIsNamed() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("lat,lon\n1,2\nx,3\n".utf8).write(to: folder.appendingPathComponent("bad.csv"))
        let result = try CommandResult.run(["render", "--input", "bad.csv", "--output", "map.png"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr == "Error: bad.csv: line 3: latitude \"x\" is not a number\n")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("map.png").path))
    }

    @Test func skipInvalidDrawsTheValidPointsWithOneWarning() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("lat,lon\n50,10\n95,10\n50.001,x\n".utf8).write(to: folder.appendingPathComponent("points.csv"))
        let strict = try CommandResult.run(["render", "--input", "points.csv", "--output", "map.png"], in: folder)
        #expect(strict.status == 2)
        #expect(strict.stderr == "Error: points.csv: line 3: latitude 95.0 is outside -90…90\n")
        let result = try CommandResult.run(
            ["render", "--input", "points.csv", "--skip-invalid", "--basemap", "none", "--output", "map.png"],
            in: folder)
        #expect(result.status == 0)
        #expect(
            result.stderr
                == "warning: points.csv: skipped 2 invalid rows (line 3: latitude 95.0 is outside -90…90; line 4: longitude \"x\" is not a number)\n"
        )
        #expect(result.stdout.hasSuffix(", 1 point in 1 view shown (0 clusters, 1 marker)\n"), "\(result.stdout)")
    }

    /// On a small fitted map a tall legend (12 colours and "other") stood over a third of the data's box, and the
    /// cluster reaching it was hidden with 407 of the 700 points: the map is fitted again in the room beside the
    /// legend, and every point shows, none under the legend.
    @Test func aSmallFittedMapMakesRoomForItsLegend() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var seed: UInt64 = 35
        func next() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53)
        }
        var csv = "lat,lon,kind\n"
        for index in 0..<700 {
            csv += "\(32 + 16 * next()),\(-2 + 24 * next()),category\(index % 35 < 10 ? "0" : "")\(index % 35)\n"
        }
        try Data(csv.utf8).write(to: folder.appendingPathComponent("points.csv"))
        let result = try CommandResult.run(
            [
                "render", "--input", "points.csv", "--category", "kind", "--colors", "12", "--legend", "--size",
                "260x300", "--basemap", "none", "--layout", "layout.json", "--output", "map.png",
            ], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("under the legend"), "\(result.stderr)")
        let layout =
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("layout.json")))
            as? [String: Any] ?? [:]
        let box = (layout["legend"] as? [String: Any])?["frame"] as? [Double] ?? []
        try #require(box.count == 4)
        let annotations = layout["annotations"] as? [[String: Any]] ?? []
        let shown = annotations.filter { $0["visible"] as? Bool == true }
        #expect(shown.reduce(0) { $0 + (($1["members"] as? [Any])?.count ?? 0) } == 700)
        for annotation in shown {
            let frame = annotation["frame"] as? [Double] ?? []
            try #require(frame.count == 4)
            #expect(
                frame[0] >= box[0] + box[2] || frame[0] + frame[2] <= box[0] || frame[1] >= box[1] + box[3]
                    || frame[1] + frame[3] <= box[1], "\(frame) overlaps the legend at \(box)")
            #expect(frame[0] >= 0 && frame[1] >= 0 && frame[0] + frame[2] <= 260 && frame[1] + frame[3] <= 300)
        }
    }

    /// A value the style lacks switches the map to colours by frequency, and says so.
    @Test func aValueTheStyleLacksColoursByFrequency() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("lat;lon;kind\n50;10;blue\n\n50.1;10;\"teal\"\n50.2;10;teal\n".utf8).write(
            to: folder.appendingPathComponent("points.csv"))
        let result = try CommandResult.run(
            [
                "render", "--input", "points.csv", "--category", "kind", "--legend", "--basemap", "none", "--layout",
                "layout.json",
                "--output", "map.png",
            ], in: folder)
        #expect(result.status == 0)
        #expect(
            result.stderr
                == "note: --category kind: \"teal\" is not a category of style \"Default\", so its colours go to the "
                + "2 of 2 values with the most points on the map\n")
        let layout =
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("layout.json")))
            as? [String: Any] ?? [:]
        let rows = (layout["legend"] as? [String: Any])?["rows"] as? [[String: Any]] ?? []
        #expect(rows.compactMap { $0["name"] as? String } == ["teal", "blue"])
        #expect(rows.compactMap { $0["color"] as? String } == ["#0072B2", "#E69F00"])
    }

    /// A legend name with characters no installed font has is drawn with boxes, and said (U+0378 is unassigned).
    @Test func aLegendNameNoFontCanDrawIsSaid() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("lat,lon,kind\n50,10,Zone\u{378}\n50.1,10,plain\n".utf8).write(
            to: folder.appendingPathComponent("points.csv"))
        let result = try CommandResult.run(
            [
                "render", "--input", "points.csv", "--category", "kind", "--legend", "--basemap", "none", "--output",
                "map.png",
            ], in: folder)
        #expect(result.status == 0)
        #expect(
            result.stderr.contains(
                "warning: legend: no installed font has every character of \"Zone\\u{378}\", drawn as boxes; a font "
                    + "that has them (Debian's fonts-noto-cjk, for one) draws them\n"), "\(result.stderr)")
    }

    @Test func featuresWithoutAGeometryAreLeftOffTheMapWithAWarning() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let unlocated = #"{"type":"Feature","properties":{},"geometry":null}"#
        let stop =
            #"{"type":"Feature","properties":{},"geometry":{"type":"MultiPoint","coordinates":[[10,50],[10.01,50.01]]}}"#
        let features = (0..<13).map { [4, 9, 12].contains($0) ? unlocated : stop }
        try Data(
            #"{"type":"FeatureCollection","features":["#.utf8 + Data(features.joined(separator: ",").utf8)
                + Data("]}".utf8)
        )
        .write(to: folder.appendingPathComponent("stops.geojson"))
        let result = try CommandResult.run(
            ["render", "--input", "stops.geojson", "--basemap", "none", "--output", "map.png"], in: folder)
        #expect(result.status == 0)
        #expect(
            result.stderr
                == "warning: stops.geojson: 3 features have no geometry (features[4], features[9], features[12]); skipped\n"
        )
        #expect(result.stdout.contains(", 20 points in "), "\(result.stdout)")
    }

    /// A MultiPoint's positions share their feature's id: their annotations' ids add each first member's number in the
    /// input, so that no two annotations of a layout share an id; an id no other annotation has stays as it is.
    @Test func annotationsOfPointsSharingAnIdHaveIdsOfTheirOwn() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let features = [
            #"{"type":"Feature","id":"d","properties":{},"geometry":{"type":"MultiPoint","coordinates":[[10,50],[12,48]]}}"#,
            #"{"type":"Feature","id":"e","properties":{},"geometry":{"type":"Point","coordinates":[11,46]}}"#,
        ]
        try Data(
            #"{"type":"FeatureCollection","features":["#.utf8 + Data(features.joined(separator: ",").utf8)
                + Data("]}".utf8)
        )
        .write(to: folder.appendingPathComponent("stops.geojson"))
        let result = try CommandResult.run(
            ["render", "--input", "stops.geojson", "--basemap", "none", "--output", "map.png", "--layout", "map.json"],
            in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let layout =
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("map.json")))
            as? [String: Any] ?? [:]
        let annotations = layout["annotations"] as? [[String: Any]] ?? []
        #expect(Set(annotations.compactMap { $0["id"] as? String }) == ["marker-d#0", "marker-d#1", "marker-e"])
        #expect(annotations.compactMap { ($0["members"] as? [String])?.first }.sorted() == ["d", "d", "e"])
    }

    /// A map fitted with no padding has its outermost points inside it, not on its edge, where none would count as
    /// on the map: here across the antimeridian, the southernmost at the bottom edge.
    @Test func aFitWithoutPaddingHasEveryPointOnTheMap() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let rows = [
            "-18.14,178.44", "-21.14,-175.20", "-13.83,-171.76", "-8.52,179.19", "-21.36,-174.95", "1.87,-157.43",
        ]
        try Data(("lat,lon\n" + rows.joined(separator: "\n") + "\n").utf8).write(
            to: folder.appendingPathComponent("islands.csv"))
        for size in ["600x400", "400x600", "333x333"] {
            let result = try CommandResult.run(
                [
                    "render", "--input", "islands.csv", "--padding", "0", "--size", size, "--basemap", "none",
                    "--output", "map.png",
                ], in: folder)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains(", 6 points in "), "\(size): \(result.stdout)")
        }
    }

    @Test func aPlistOnStandardInputTakesTheTandmStyle() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandResult.run(
            ["render", "--input", "-", "--size", "390x600", "--output", "tandm.svg"], in: folder,
            stdin: try Data(contentsOf: URL(fileURLWithPath: tandmPlist)))
        // The default style has no tricycles: the TANDm one was chosen, as for a .plist file.
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.hasSuffix("zoom 16.04, 65 points in 22 views shown (12 clusters, 10 markers)\n"),
            "\(result.stdout)")
    }

    /// A circle across the antimeridian is drawn round its centre, not as a band to the map's edge, and one round a
    /// pole fills up to the map's top edge.
    @Test func circlesAcrossTheAntimeridianAndRoundAPole() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("lat,lon\n-17,179\n".utf8).write(to: folder.appendingPathComponent("p.csv"))
        let fiji = try CommandResult.run(
            [
                "render", "--input", "p.csv", "--circle", "-17,179,1000000", "--fill", "#ff0000", "--center", "-17,179",
                "--zoom", "3", "--size", "200x200", "--opacity", "1", "--output", "fiji.png",
            ], in: folder)
        #expect(fiji.status == 0, "\(fiji.stderr)")
        let image = try RGBAImage(contentsOf: folder.appendingPathComponent("fiji.png"))
        // 1,000 km is 45 points at zoom 3 on this latitude: inside either side of 180°, outside beyond.
        for x in [70, 130] { #expect(image[x, 100] == [255, 0, 0, 255], "\(x)") }
        for x in [2, 198] { #expect(image[x, 100] != [255, 0, 0, 255], "\(x)") }
        let cap = try CommandResult.run(
            [
                "render", "--input", "p.csv", "--circle", "89,0,5000000", "--fill", "#ff0000", "--center", "0,0",
                "--zoom", "0", "--size", "256x256", "--opacity", "1", "--output", "cap.png",
            ], in: folder)
        #expect(cap.status == 0, "\(cap.stderr)")
        let capImage = try RGBAImage(contentsOf: folder.appendingPathComponent("cap.png"))
        // Filled from the top edge down to about 44°N (y 94 of 256) all the way across.
        for x in [3, 128, 252] {
            #expect(capImage[x, 3] == [255, 0, 0, 255] && capImage[x, 80] == [255, 0, 0, 255], "\(x)")
            #expect(capImage[x, 110] != [255, 0, 0, 255], "\(x)")
        }
    }

    /// A route's steps across the antimeridian go the shorter way, as the map is fitted: Fiji to Samoa runs 10°
    /// east across 180°, not 350° west off the map, and on to Tonga and back.
    @Test func routesCrossTheAntimeridianTheShortWay() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("lat,lon\n-18.14,178.44\n".utf8).write(to: folder.appendingPathComponent("p.csv"))
        try Data(
            #"{"type":"LineString","coordinates":[[178.44,-18.14],[-171.77,-13.83],[-175.2,-21.13],[178.44,-18.14]]}"#
                .utf8
        ).write(to: folder.appendingPathComponent("route.geojson"))
        let result = try CommandResult.run(
            [
                "render", "--input", "p.csv", "--route", "route.geojson", "--basemap", "none", "--center",
                "-16,-176.66", "--zoom", "5", "--size", "400x200", "--output", "route.png",
            ], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let image = try RGBAImage(contentsOf: folder.appendingPathComponent("route.png"))
        // Fiji to Samoa passes the map's centre (halfway, on 180°), Samoa to Tonga about (272, 136), both east of
        // 180° as given; the top-left corner is the empty map.
        #expect(image[200, 100] != image[5, 5], "\(image[200, 100])")
        let samoaToTonga = (266...278).flatMap { x in (130...142).map { image[x, $0] } }
        #expect(samoaToTonga.contains { $0 != image[5, 5] })
        #expect(image[380, 100] == image[5, 5])
    }

    /// Data cut at the antimeridian writes a vertex at 180° and the next at −180°: a line running on across it
    /// crosses there (it ran back round the world, and nothing east of 180° was drawn), while a ring along the
    /// world's bottom edge from 180° to −180° still closes round the pole; and a shape the map shows on two sides of
    /// the antimeridian, or on several copies of a wide map, is drawn on each, as the markers are.
    @Test func overlaysCrossTheAntimeridianAndRepeatWithTheWorld() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("lat,lon\n-18.14,178.44\n".utf8).write(to: folder.appendingPathComponent("p.csv"))
        try Data(
            #"{"type":"LineString","coordinates":[[150,-25],[180,-25],[-180,-25],[-150,-25]]}"#.utf8
        ).write(to: folder.appendingPathComponent("cut.geojson"))
        try Data(
            #"{"type":"Polygon","coordinates":[[[-180,-60],[0,-60],[180,-60],[180,-90],[-180,-90],[-180,-60]]]}"#.utf8
        ).write(to: folder.appendingPathComponent("south.geojson"))
        func render(_ arguments: [String], _ name: String) throws -> RGBAImage {
            let result = try CommandResult.run(
                ["render", "--input", "p.csv", "--basemap", "none", "--output", name] + arguments, in: folder)
            #expect(result.status == 0, "\(result.stderr)")
            return try RGBAImage(contentsOf: folder.appendingPathComponent(name))
        }
        // 800×400 at zoom 3 round 170°: 5.7 points a degree, 150° at x 286, 180° at 457, 210° (−150°) at 627.
        let line = try render(
            ["--route", "cut.geojson", "--center", "-25,170", "--zoom", "3", "--size", "800x400"], "cut.png")
        #expect(line[600, 200] != line[5, 5], "\(line[600, 200])")
        #expect(line[100, 200] == line[5, 5], "\(line[100, 200])")
        // The cap south of 60°S, centred on 175°: filled on both sides of 180° (x 228).
        let cap = try render(
            [
                "--overlay", "south.geojson", "--fill", "#ff0000", "--opacity", "1", "--center", "-70,175", "--zoom",
                "3", "--size", "400x200",
            ], "south.png")
        for x in [100, 350] { #expect(cap[x, 100] == [255, 0, 0, 255], "\(x): \(cap[x, 100])") }
        // Zoom 0 on 1,024 points shows four worlds of 256: the circle round 100°W (x 441, y 176) on each.
        let wide = try render(
            [
                "--circle", "40,-100,2000000", "--fill", "#ff0000", "--opacity", "1", "--center", "10,0", "--zoom", "0",
                "--size", "1024x400",
            ], "wide.png")
        for x in [185, 441, 697, 953] { #expect(wide[x, 176] == [255, 0, 0, 255], "\(x): \(wide[x, 176])") }
        #expect(wide[569, 176] != [255, 0, 0, 255])
    }

    /// An overlay of points alone draws nothing (points are what --input clusters): it is said, where it was silent.
    @Test func anOverlayOfPointsAloneIsSaid() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("lat,lon\n50,10\n".utf8).write(to: folder.appendingPathComponent("p.csv"))
        try Data(#"{"type":"MultiPoint","coordinates":[[10,50],[11,51]]}"#.utf8).write(
            to: folder.appendingPathComponent("dots.geojson"))
        let result = try CommandResult.run(
            ["render", "--input", "p.csv", "--basemap", "none", "--overlay", "dots.geojson", "--output", "p.png"],
            in: folder)
        #expect(result.status == 0)
        #expect(
            result.stderr
                == "warning: dots.geojson: no line or polygon to draw; an overlay draws LineString, Polygon and their "
                + "Multi forms (points to show go in --input)\n")
    }

    /// A layout's members name points by id, else by input position: where two names are alike, it is said.
    @Test func membersThatCannotTellPointsApartAreSaid() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Feature 0's id 1 is feature 1's position; feature 2's id "1" is a string, a name of its own.
        let features = [
            #"{"type":"Feature","id":1,"properties":{},"geometry":{"type":"Point","coordinates":[10,50]}}"#,
            #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[20,50]}}"#,
            #"{"type":"Feature","id":"1","properties":{},"geometry":{"type":"Point","coordinates":[30,50]}}"#,
        ]
        try Data((#"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}").utf8).write(
            to: folder.appendingPathComponent("p.geojson"))
        let arguments = ["render", "--input", "p.geojson", "--basemap", "none", "--output", "p.png"]
        let result = try CommandResult.run(arguments + ["--layout", "p.json"], in: folder)
        #expect(result.status == 0)
        #expect(
            result.stderr
                == "warning: --layout: 2 of 3 points share their name in `members` with another point (an id given "
                + "twice, or an id equal to the input position of a point without one), so members do not tell them "
                + "apart\n")
        // Without a layout there are no members to speak of.
        #expect(try CommandResult.run(arguments, in: folder).stderr.isEmpty)
    }

    /// A thumbnail: the attribution's text shrinks to the map's width, and where keeping clear of it would hide most
    /// of the points in view (here the one cluster, which reaches its strip), the cluster shows and the attribution is
    /// drawn over it, said in a warning; before, the map showed nothing but its credit.
    @Test func theAttributionGivesWayOnAThumbnail() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var rows = "lat,lon\n"
        for index in 0..<50 {
            rows += "\(48 + Double(index % 7) * 0.02 - 0.06),\(10 + Double(index % 5) * 0.03 - 0.06)\n"
        }
        try Data(rows.utf8).write(to: folder.appendingPathComponent("p.csv"))
        let result = try CommandResult.run(
            [
                "render", "--input", "p.csv", "--size", "100x80", "--center", "48.44,10", "--zoom", "5", "--layout",
                "t.json", "--output", "t.png",
            ], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr
                == "warning: attribution: keeping markers clear of it would hide 50 of the 50 points in view on this "
                + "100×80 pt map, so it is drawn over them\n")
        #expect(result.stdout.hasSuffix("50 points in 1 view shown (1 cluster, 0 markers)\n"), "\(result.stdout)")
        let layout = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("t.json")))
                as? [String: Any])
        let attribution = try #require((layout["attribution"] as? [String: Any])?["frame"] as? [Double])
        #expect(attribution[0] >= 0 && attribution[2] <= 100, "\(attribution)")
        // On a map with room for both, markers keep clear of it as before.
        let roomy = try CommandResult.run(
            [
                "render", "--input", "p.csv", "--size", "300x200", "--center", "48.2,10", "--zoom", "5", "--output",
                "r.png",
            ],
            in: folder)
        #expect(roomy.status == 0 && roomy.stderr.isEmpty, "\(roomy.stderr)")
        // Turned, the compass comes too, in the corner the cluster reaches: both give way.
        let turned = try CommandResult.run(
            [
                "render", "--input", "p.csv", "--size", "64x64", "--center", "48,10", "--zoom", "5", "--bearing", "10",
                "--output", "b.png",
            ], in: folder)
        #expect(turned.status == 0)
        #expect(
            turned.stderr
                == "warning: attribution: its 79 pt box is wider than the 64×64 pt map, so it is cut\n"
                + "warning: compass and attribution: keeping markers clear of them would hide 50 of the 50 points in "
                + "view on this 64×64 pt map, so they are drawn over them\n")
        #expect(turned.stdout.hasSuffix("50 points in 1 view shown (1 cluster, 0 markers)\n"), "\(turned.stdout)")
        // Fitted, a thumbnail's default padding is a quarter of its side; a padding given that leaves no room is named.
        let fitted = try CommandResult.run(
            ["render", "--input", "p.csv", "--size", "64x64", "--output", "f.png"], in: folder)
        #expect(fitted.status == 0 && fitted.stdout.hasSuffix("50 points in 1 view shown (1 cluster, 0 markers)\n"))
        let padded = try CommandResult.run(
            ["render", "--input", "p.csv", "--size", "64x64", "--padding", "32", "--output", "g.png"], in: folder)
        #expect(padded.status == 2)
        #expect(
            padded.stderr
                == "Error: --padding 32 leaves no room on a 64x64 map to fit the data in; give a --padding below 32, "
                + "or --center and --zoom\n")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("g.png").path))
    }

    /// `--legend` without `--category`: every point is in the style's first category, and the warning says why the
    /// legend has one row; TANDm's own categories need no `--category` and get no warning.
    @Test func aLegendWithoutCategoriesSaysWhy() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("lat,lon\n48,10\n49,11\n".utf8).write(to: folder.appendingPathComponent("p.csv"))
        let plain = try CommandResult.run(
            ["render", "--input", "p.csv", "--legend", "--basemap", "none", "--output", "p.png"], in: folder)
        #expect(plain.status == 0)
        #expect(
            plain.stderr
                == "warning: --legend: without --category every point is in the style's first category, \"blue\", "
                + "the legend's one row; --category PROP colours the points by a property\n")
        let tandm = try CommandResult.run(
            ["render", "--input", tandmPlist, "--legend", "--basemap", "none", "--output", "t.png"], in: folder)
        #expect(tandm.status == 0 && !tandm.stderr.contains("--legend"), "\(tandm.stderr)")
    }

    /// On a small map the furniture keeps to the map: the scale bar goes above the attribution rather than under it,
    /// and what has no room is left out and said.
    @Test func furnitureKeepsToSmallMaps() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("lat,lon\n-17,178\n-18,178.5\n-21,-175\n-13.8,-171.8\n".utf8).write(
            to: folder.appendingPathComponent("p.csv"))
        let small = try CommandResult.run(
            [
                "render", "--input", "p.csv", "--size", "120x120", "--padding", "5", "--scale-bar", "--compass",
                "always", "--layout", "small.json", "--output", "small.png",
            ], in: folder)
        #expect(small.status == 0, "\(small.stderr)")
        let layout = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("small.json")))
                as? [String: Any])
        let bar = try #require((layout["scaleBar"] as? [String: Any])?["frame"] as? [Double])
        let attribution = try #require((layout["attribution"] as? [String: Any])?["frame"] as? [Double])
        // Above the attribution, which spans the map's width: no longer under it.
        #expect(bar[1] + bar[3] <= attribution[1] && bar[1] >= 0, "\(bar) \(attribution)")
        let tiny = try CommandResult.run(
            [
                "render", "--input", "p.csv", "--size", "20x20", "--center", "-17,178", "--zoom", "3", "--scale-bar",
                "--compass", "always", "--layout", "tiny.json", "--output", "tiny.png",
            ], in: folder)
        #expect(tiny.status == 0, "\(tiny.stderr)")
        for warning in [
            "warning: compass: the 20×20 pt map has no room for it; drawn without one\n",
            "warning: scale bar: the 20×20 pt map has no room for it beside the attribution; drawn without one\n",
            "warning: attribution: its 79 pt box is wider than the 20×20 pt map, so it is cut\n",
        ] {
            #expect(tiny.stderr.contains(warning), "\(tiny.stderr)")
        }
        let tinyLayout = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("tiny.json")))
                as? [String: Any])
        #expect(tinyLayout["compass"] == nil && tinyLayout["scaleBar"] == nil)
        // A map of one point with no padding has room for its point; a negative size is said to be invalid.
        let one = try CommandResult.run(
            ["render", "--input", "p.csv", "--size", "1x1", "--padding", "0", "--output", "one.png"], in: folder)
        #expect(one.status == 0, "\(one.stderr)")
        let negative = try CommandResult.run(
            ["render", "--input", "p.csv", "--size", "-5x10", "--output", "neg.png"], in: folder)
        #expect(negative.status == 2)
        #expect(
            negative.stderr.hasPrefix("Error: The value '-5x10' is invalid for '--size <WxH>'"), "\(negative.stderr)")
    }
}
