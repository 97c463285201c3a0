import DeclutterGeometry
import DeclutterMapContent
import DeclutterRender
import DeclutterServer
import DeclutterStaticAPI
import DeclutterStyle
import DeclutterSupport
import DeclutterTesting
import DeclutterTiles
import Foundation
import Testing

@testable import DeclutterCLI
@testable import DeclutterCommandLine
@testable import DeclutterMap

/// The option values read from text by the argument types: what each accepts, what it refuses, and what a user is
/// told for a refused one.
@Suite struct ArgumentTypesTests {
    @Test func boundingBoxes() {
        #expect(
            BoundingBoxArgument(argument: "-10,35,30,60")
                == BoundingBoxArgument(west: -10, south: 35, east: 30, north: 60))
        #expect(
            BoundingBoxArgument(argument: " -10, 35 ,30,60 ")
                == BoundingBoxArgument(west: -10, south: 35, east: 30, north: 60))
        #expect(
            BoundingBoxArgument(argument: "170,-30,-170,0")
                == BoundingBoxArgument(west: 170, south: -30, east: -170, north: 0))
        #expect(
            BoundingBoxArgument(argument: "-200,-90,200,90")
                == BoundingBoxArgument(west: -200, south: -90, east: 200, north: 90))
        #expect(BoundingBoxArgument(argument: "0,10,0,10") != nil, "a point is a box")
        for bad in [
            "1,2,3", "1,2,3,4,5", "a,b,c,d", "0,60,10,35", "0,-91,10,0", "0,0,10,90.5", "nan,0,1,1", "0,0,inf,1",
            "1,,2,3", "", "1;2;3;4",
        ] {
            #expect(BoundingBoxArgument(argument: bad) == nil, "\(bad)")
        }
        #expect(BoundingBoxArgument.world.defaultValueDescription == "-180,-90,180,90")
        #expect(BoundingBoxArgument(argument: "-10.5,35,30,60")?.json.jsonText == "[-10.5,35,30,60]")
    }

    @Test(arguments: [
        ("-10,35,30,60", [-10.0...30.0]),
        ("-180,-90,180,90", [-180.0...180.0]),
        ("-200,-90,200,90", [-180.0...180.0]),
        ("170,-30,-170,0", [170.0...180.0, -180.0...(-170.0)]),
        ("-190,-30,-170,0", [170.0...180.0, -180.0...(-170.0)]),
        ("190,0,200,10", [-170.0...(-160.0)]),
        ("0,0,180,10", [0.0...180.0]),
    ])
    func boundingBoxLongitudesWrapAsTheIndexWrapsThem(text: String, spans: [ClosedRange<Double>]) throws {
        #expect(try #require(BoundingBoxArgument(argument: text)).longitudeSpans == spans)
    }

    @Test func tiles() {
        #expect(TileArgument(argument: "0/0/0") == TileArgument(z: 0, x: 0, y: 0))
        #expect(TileArgument(argument: "11/327/791") == TileArgument(z: 11, x: 327, y: 791))
        #expect(TileArgument(argument: "22/4194303/4194303") == TileArgument(z: 22, x: 4_194_303, y: 4_194_303))
        for bad in ["2/4/0", "2/0/4", "23/0/0", "-1/0/0", "1/0", "1/0/0/0", "a/b/c", "1//0", "1/-1/0", "", "1,0,0"] {
            #expect(TileArgument(argument: bad) == nil, "\(bad)")
        }
    }

    @Test func sizes() {
        #expect(SizeArgument(argument: "800x600") == SizeArgument(width: 800, height: 600))
        #expect(SizeArgument(argument: "800X600") == SizeArgument(width: 800, height: 600))
        #expect(SizeArgument(argument: "800×600") == SizeArgument(width: 800, height: 600), "as render prints sizes")
        #expect(SizeArgument(argument: "12.5x1") == SizeArgument(width: 12.5, height: 1))
        for bad in ["0x10", "10x0.5", "10x", "x10", "10x10x10", "infx10", "nanx10", "-5x10", "800,600", ""] {
            #expect(SizeArgument(argument: bad) == nil, "\(bad)")
        }
        #expect(SizeArgument(width: 800, height: 600).defaultValueDescription == "800x600")
        #expect(SizeArgument(width: 12.5, height: 1).defaultValueDescription == "12.5x1")
    }

    @Test func centres() {
        #expect(CoordinateArgument(argument: "48,10")?.coordinate == Coordinate(longitude: 10, latitude: 48))
        #expect(CoordinateArgument(argument: "-90, 180")?.coordinate == Coordinate(longitude: 180, latitude: -90))
        for bad in ["91,0", "0,181", "0,-180.5", "48", "48,10,3", "a,b", "nan,0", "48;10", ""] {
            #expect(CoordinateArgument(argument: bad) == nil, "\(bad)")
        }
        #expect(CoordinateArgument(argument: "37.8,-122.4")?.defaultValueDescription == "37.8,-122.4")
    }

    @Test func circles() {
        #expect(
            CircleArgument(argument: "37.8,-122.4,300")
                == CircleArgument(center: Coordinate(longitude: -122.4, latitude: 37.8), radius: 300))
        #expect(CircleArgument(argument: "0,0,20000000")?.radius == 20_000_000)
        for bad in [
            "37.8,-122.4", "37.8,-122.4,0", "37.8,-122.4,-5", "37.8,-122.4,20000001", "91,0,10", "0,181,10", "0,0,inf",
            "0,0,1,2",
        ] {
            #expect(CircleArgument(argument: bad) == nil, "\(bad)")
        }
    }

    @Test func pixelRatios() {
        #expect(PixelRatiosArgument(argument: "1,2,3")?.ratios == [1, 2, 3])
        #expect(PixelRatiosArgument(argument: "2")?.ratios == [2])
        #expect(PixelRatiosArgument(argument: " 3, 1")?.ratios == [3, 1])
        for bad in ["1,4", "0", "", "1,,2", "1,", "x", "1.5"] {
            #expect(PixelRatiosArgument(argument: bad) == nil, "\(bad)")
        }
    }

    @Test func colours() {
        #expect(HexColorArgument(argument: "#f00")?.color == RGBAColor(hex: "#ff0000"))
        #expect(HexColorArgument(argument: "#11223344")?.color == RGBAColor(hex: "#11223344"))
        #expect(HexColorArgument(argument: "red") == nil)
        #expect(HexColorArgument(argument: "#12345") == nil)
        #expect(ColorArgument(argument: "0,192,0")?.color == .init(0, 192, 0))
        #expect(ColorArgument(argument: " 255, 0 ,255")?.color == .init(255, 0, 255))
        for bad in ["300,0,0", "1,2", "1,2,3,4", "1,,2", "-1,0,0", "#ff0000"] {
            #expect(ColorArgument(argument: bad) == nil, "\(bad)")
        }
    }

    /// A refused value is told by the parser, naming the option, the value and, from the option's help, what it takes.
    @Test(arguments: [
        (
            ["cluster", "--input", "x.csv", "--zoom", "1", "--bbox", "0,60,10,35"],
            "Error: The value '0,60,10,35' is invalid for '--bbox <w,s,e,n>'\nHelp:  --bbox <w,s,e,n>  Bounding box west,south,east,north "
                + "in degrees, -90 ≤ south ≤ north ≤ 90; longitudes wrap, west > east crosses the antimeridian (default: the whole world).\n"
        ),
        (
            ["cluster", "--input", "x.csv", "--zoom", "1", "--from-bbox", "1,2,3"],
            "Error: The value '1,2,3' is invalid for '--from-bbox <w,s,e,n>'\nHelp:  --from-bbox <w,s,e,n>  Print the change from the view "
                + "of this box (default: --bbox) to --bbox as JSON; west,south,east,north in degrees, -90 ≤ south ≤ north ≤ 90.\n"
        ),
        (
            ["cluster", "--input", "x.csv", "--tile", "23/0/0"],
            "Error: The value '23/0/0' is invalid for '--tile <z/x/y>'\nHelp:  --tile <z/x/y>  Print supercluster's JSON for tile z/x/y "
                + "instead, 0 ≤ z ≤ 22 and 0 ≤ x, y < 2^z.\n"
        ),
        (
            ["render", "--input", "x.csv", "--output", "x.png", "--size", "800,600"],
            "Error: The value '800,600' is invalid for '--size <WxH>'\nHelp:  --size <WxH>  Map size in points, WIDTHxHEIGHT, each 1 or more "
                + "(at most 16384 px at the scale).\n"
        ),
        (
            ["render", "--input", "x.csv", "--output", "x.png", "--zoom", "3", "--center", "10,48,3"],
            "Error: The value '10,48,3' is invalid for '--center <lat,lon>': expected two numbers, LAT,LON in degrees\n"
                + "Help:  --center <lat,lon>  The centre of the map (with --zoom), "
                + "LAT,LON in degrees: -85.05 ≤ LAT ≤ 85.05 (Web Mercator's edge), -180 ≤ LON ≤ 180.\n"
        ),
        // Swift reads `nan` (and `0x10`) as numbers; a coordinate is neither.
        (
            ["render", "--input", "x.csv", "--output", "x.png", "--zoom", "3", "--center", "nan,nan"],
            "Error: The value 'nan,nan' is invalid for '--center <lat,lon>': expected two numbers, LAT,LON in degrees\n"
                + "Help:  --center <lat,lon>  The centre of the map (with --zoom), "
                + "LAT,LON in degrees: -85.05 ≤ LAT ≤ 85.05 (Web Mercator's edge), -180 ≤ LON ≤ 180.\n"
        ),
        // The part out of range is named, and a LON,LAT pair that would do the other way round is said to be one.
        (
            ["render", "--input", "x.csv", "--output", "x.png", "--zoom", "3", "--center", "48,200"],
            "Error: The value '48,200' is invalid for '--center <lat,lon>': the longitude 200 is out of range; expected "
                + "-180…180\n"
        ),
        (
            ["render", "--input", "x.csv", "--output", "x.png", "--zoom", "3", "--center", "-122.4, 37.8"],
            "Error: The value '-122.4, 37.8' is invalid for '--center <lat,lon>': the latitude -122.4 is out of range; "
                + "expected -90…90 (the latitude comes first: did you mean 37.8,-122.4?)\n"
        ),
        (
            ["render", "--input", "x.csv", "--output", "x.png", "--circle", "37.8,-122.4,0"],
            "Error: The value '37.8,-122.4,0' is invalid for '--circle <lat,lon,metres>': the radius 0 m is out of range; "
                + "expected over 0 and up to 20,000,000 (20,000 km)\n"
        ),
        // A circle's position is read as --center's, naming the part out of range.
        (
            ["render", "--input", "x.csv", "--output", "x.png", "--circle", "100,0,10"],
            "Error: The value '100,0,10' is invalid for '--circle <lat,lon,metres>': the latitude 100 is out of range; "
                + "expected -90…90 (the latitude comes first: did you mean 0,100,10?)\n"
        ),
        (
            ["render", "--input", "x.csv", "--output", "x.png", "--circle", "10,0"],
            "Error: The value '10,0' is invalid for '--circle <lat,lon,metres>': expected three numbers, LAT,LON,METRES\n"
        ),
        (
            ["render", "--input", "x.csv", "--output", "x.png", "--stroke", "red"],
            "Error: The value 'red' is invalid for '--stroke <#RRGGBB[AA]>'\nHelp:  --stroke <#RRGGBB[AA]>  Stroke colour of overlays and "
                + "circles: #RGB, #RRGGBB or #RRGGBBAA.\n"
        ),
        (
            ["sprites", "--style", "tandm", "--output", "out", "--ratios", "1,,2"],
            "Error: The value '1,,2' is invalid for '--ratios <1,2,3>'\nHelp:  --ratios <1,2,3>  Pixel ratios, one or more of 1, 2, 3 "
                + "separated by commas; default: the style's sprites.ratios.\n"
        ),
        (
            ["diff", "a.png", "b.png", "--aa-color", "1,2"],
            "Error: The value '1,2' is invalid for '--aa-color <r,g,b>'\nHelp:  --aa-color <r,g,b>  Colour of anti-aliased pixels in the diff.\n"
        ),
    ])
    func aRefusedValueNamesTheOptionAndWhatItTakes(arguments: [String], message: String) throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("lat,lon\n1,2\n".utf8).write(to: folder.appendingPathComponent("x.csv"))
        let result = try CommandResult.run(arguments, in: folder)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["x.csv"], "nothing written")
    }

    /// Accepted values reach the map: the size as `render` prints it, the centre, a circle and a colour.
    @Test func acceptedValuesReachTheMap() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("lat,lon\n48,10\n".utf8).write(to: folder.appendingPathComponent("x.csv"))
        let result = try CommandResult.run(
            [
                "render", "--input", "x.csv", "--size", "300×200", "--center", "48, 10", "--zoom", "5",
                "--circle", "48,10,50000", "--stroke", "#f00", "--basemap", "none", "--layout", "layout.json",
                "--output", "map.svg",
            ], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("wrote map.svg: 300×200 pt, zoom 5.00"), "\(result.stdout)")
        let layout =
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("layout.json")))
            as? [String: Any]
        #expect(layout?["center"] as? [Double] == [10, 48])
        let svg = try String(contentsOf: folder.appendingPathComponent("map.svg"), encoding: .utf8)
        #expect(svg.contains("rgb(100%,0%,0%)"), "the circle's stroke")
    }
}
