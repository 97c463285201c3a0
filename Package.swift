// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Declutter",
    // Synchronization's Mutex; on Linux every Swift 6 toolchain has it.
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "DeclutterSupport", targets: ["DeclutterSupport"]),
        .library(name: "DeclutterGeometry", targets: ["DeclutterGeometry"]),
        .library(name: "DeclutterClustering", targets: ["DeclutterClustering"]),
        .library(name: "DeclutterPlacement", targets: ["DeclutterPlacement"]),
        .library(name: "DeclutterStyle", targets: ["DeclutterStyle"]),
        .library(name: "DeclutterInput", targets: ["DeclutterInput"]),
        .library(name: "DeclutterMapContent", targets: ["DeclutterMapContent"]),
        .library(name: "DeclutterBasemap", targets: ["DeclutterBasemap"]),
        .library(name: "DeclutterTileSources", targets: ["DeclutterTileSources"]),
        .library(name: "DeclutterMap", targets: ["DeclutterMap"]),
        .library(name: "DeclutterStaticAPI", targets: ["DeclutterStaticAPI"]),
        .library(name: "DeclutterPNG", targets: ["DeclutterPNG"]),
        .library(name: "DeclutterRender", targets: ["DeclutterRender"]),
        .library(name: "DeclutterTiles", targets: ["DeclutterTiles"]),
        .library(name: "DeclutterServer", targets: ["DeclutterServer"]),
        .library(name: "DeclutterTesting", targets: ["DeclutterTesting"]),
        .library(name: "DeclutterSnapshotTesting", targets: ["DeclutterSnapshotTesting"]),
        // The deflater and three C libraries' modules are products only so that the sanitizer package (Sanitize/) can
        // build the suites that import them.
        .library(name: "DeclutterDeflate", targets: ["DeclutterDeflate"]),
        .library(name: "CCairo", targets: ["CCairo"]),
        .library(name: "CSQLite", targets: ["CSQLite"]),
        .library(name: "CZlib", targets: ["CZlib"]),
        .executable(name: "declutter", targets: ["declutter"]),
        .executable(name: "declutter-bench", targets: ["declutter-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.17.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        // The server's edge (connection limit, timeouts, the parser's refusals as JSON) sits in Hummingbird's channel
        // pipeline, among SwiftNIO's handlers and HTTP types; all are Hummingbird's own dependencies.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.24.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.0.0"),
    ],
    targets: [
        // Cairo and Pango from the system (Debian: libcairo2-dev libpango1.0-dev).
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "pangocairo",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev"]), .brew(["cairo", "pango"])]
        ),
        // libcurl's header (Debian: libcurl4-openssl-dev), for HTTP tiles; the library is opened at run time, not
        // linked.
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]),
        // zlib from the system (Debian: zlib1g-dev, which libcairo2-dev brings), for PNG and the basemap's cells.
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        // libdeflate from the system (Debian: libdeflate-dev): PNG decoding inflates with it, two to three times as
        // fast as zlib (`declutter-bench png`).
        .systemLibrary(
            name: "CLibDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"]), .brew(["libdeflate"])]),
        // libjpeg-turbo's TurboJPEG API and libwebp from the system (Debian: libturbojpeg0-dev libwebp-dev), which
        // decode the JPEG and WebP screenshots `declutter diff` compares.
        .systemLibrary(
            name: "CTurboJPEG", pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"]), .brew(["jpeg-turbo"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"]), .brew(["webp"])]),
        // SQLite from the system, for MBTiles tile sets (Debian: libsqlite3-dev).
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        // The files every binary carries (bundled styles, the basemap, the demo's data), laid into it by the
        // assembler so that a copied `declutter` works alone. Paths in resources.S are relative to the package root.
        .target(name: "CDeclutterResources", exclude: ["Basemap", "Demo"], cSettings: [.headerSearchPath("../..")]),
        // Support: cores, concurrentMap, the file system, JSON, counts as text, the error kinds every front end maps.
        .target(name: "DeclutterSupport"),
        // Deflate for PNG and vector tiles: the bit writer, code tables, Adler-32, Huffman codes, the fixed-code
        // deflater for small tiles and gzip (libdeflate above 2 KB, zlib's crc32).
        .target(name: "DeclutterDeflate", dependencies: ["CLibDeflate", "CZlib", "DeclutterSupport"]),
        // PNG encoding (Declutter's own deflate, or zlib) and decoding (inflated by libdeflate), on pixel buffers: no
        // Cairo, Pango or SQLite.
        .target(name: "DeclutterPNG", dependencies: ["CLibDeflate", "CZlib", "DeclutterDeflate", "DeclutterSupport"]),
        // The domain, pure Swift: coordinates, Web Mercator, the camera and its world copies, the raster tile grid.
        .target(name: "DeclutterGeometry", dependencies: ["DeclutterSupport"]),
        // supercluster's index, the viewport grid and the diffable change between views.
        .target(name: "DeclutterClustering", dependencies: ["DeclutterGeometry", "DeclutterSupport"]),
        // MapKit's placement: collision modes, display priorities, merging by clustering identifier, the collision
        // grid.
        .target(name: "DeclutterPlacement", dependencies: ["DeclutterGeometry", "DeclutterSupport"]),
        // Marker styles, categories, colours, and the sprite sheet's plan and names.
        .target(name: "DeclutterStyle", dependencies: ["DeclutterPlacement", "DeclutterPNG", "DeclutterSupport"]),
        // Point readers (CSV, GeoJSON, the TANDm plist) and GeoJSON shapes.
        .target(
            name: "DeclutterInput", dependencies: ["DeclutterClustering", "DeclutterGeometry", "DeclutterSupport"]),
        // What a map shows for a camera: the annotator (clusters placed as MapKit places them), overlays, the legend,
        // the layout JSON.
        .target(
            name: "DeclutterMapContent",
            dependencies: [
                "DeclutterClustering", "DeclutterGeometry", "DeclutterInput", "DeclutterPlacement", "DeclutterStyle",
                "DeclutterSupport",
            ]
        ),
        // The embedded basemap's data, read from the bundled file (zlib): Natural Earth geometry by zoom band and grid
        // cell, and place names. No drawing: static maps paint it, tilesets encode it as vector tiles.
        .target(
            name: "DeclutterBasemap",
            dependencies: ["CDeclutterResources", "CZlib", "DeclutterGeometry", "DeclutterSupport"]),
        // Drawing with Cairo and Pango: canvases, cluster icons and balloons, sprite sheets, the embedded basemap,
        // static maps from tiles already fetched. No I/O but the bundled files.
        .target(
            name: "DeclutterRender",
            dependencies: [
                "CCairo", "CZlib", "CDeclutterResources", "DeclutterBasemap", "DeclutterGeometry",
                "DeclutterMapContent",
                "DeclutterPNG",
                "DeclutterPlacement",
                "DeclutterStyle", "DeclutterSupport",
            ]
        ),
        // Raster tiles from a server (libcurl, opened at run time, with a disk cache), a folder or an MBTiles file.
        .target(
            name: "DeclutterTileSources",
            dependencies: ["CCurl", "CSQLite", "DeclutterGeometry", "DeclutterPNG", "DeclutterSupport"]),
        // Cluster vector tiles (Mapbox Vector Tile 2.1), the embedded basemap as vector tiles, the tileset archives they
        // go into (MBTiles, PMTiles, a folder) and are read back from for serving (MBTiles through the tile sources'
        // SQLite reader), and the MapLibre style that draws them with a sprite sheet; no Cairo.
        .target(
            name: "DeclutterTiles",
            dependencies: [
                "CSQLite", "DeclutterBasemap", "DeclutterClustering", "DeclutterDeflate", "DeclutterGeometry",
                "DeclutterMapContent", "DeclutterStyle", "DeclutterSupport", "DeclutterTileSources",
            ]
        ),
        // The map pipeline: a map's description (points, overlays, style, camera, furniture) drawn in one pass — camera
        // resolved, categories given and points projected once — and the jobs built on it: a gesture's frames, a
        // tileset with its sprite sheet and style. Every front end translates its input into these.
        .target(
            name: "DeclutterMap",
            dependencies: [
                "DeclutterBasemap", "DeclutterClustering", "DeclutterGeometry", "DeclutterInput", "DeclutterMapContent",
                "DeclutterPNG",
                "DeclutterPlacement",
                "DeclutterRender", "DeclutterStyle", "DeclutterSupport", "DeclutterTileSources", "DeclutterTiles",
            ]
        ),
        // Image comparison and golden files: PNG with the own codec, JPEG and WebP screenshots read by the system's
        // libraries; no Cairo, so tests that diff images need none.
        .target(name: "DeclutterTesting", dependencies: ["CTurboJPEG", "CWebP", "DeclutterPNG", "DeclutterSupport"]),
        // swift-snapshot-testing strategies live apart so that the CLI, which compares images too, does not link
        // XCTest.
        .target(
            name: "DeclutterSnapshotTesting",
            dependencies: [
                "DeclutterTesting", "DeclutterRender", "DeclutterSupport",
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ]
        ),
        // Static-map requests in the shape of Mapbox's Static Images API: the URL grammar and `POST /static`'s body,
        // with their limits and the HTTP status each refusal answers with; no HTTP server.
        .target(
            name: "DeclutterStaticAPI",
            dependencies: [
                "DeclutterClustering", "DeclutterGeometry", "DeclutterInput", "DeclutterStyle", "DeclutterSupport",
            ]
        ),
        // The HTTP service (`declutter serve`): static maps in Mapbox's URL shape, cluster tiles, sprites, metrics, on
        // Hummingbird, rendering on a bounded pool of threads off the event loops.
        .target(
            name: "DeclutterServer",
            dependencies: [
                "DeclutterBasemap", "DeclutterClustering", "DeclutterGeometry", "DeclutterInput", "DeclutterMap",
                "DeclutterMapContent",
                "DeclutterPNG", "DeclutterRender",
                "DeclutterStaticAPI", "DeclutterStyle", "DeclutterSupport", "DeclutterTileSources", "DeclutterTiles",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // What both programs share: exit codes and messages for failures, standard error and output, progress, argument
        // types and the options that read points.
        .target(
            name: "DeclutterCommandLine",
            dependencies: [
                "DeclutterGeometry", "DeclutterInput", "DeclutterPlacement", "DeclutterRender", "DeclutterStyle",
                "DeclutterSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The command line's commands.
        .target(
            name: "DeclutterCLI",
            dependencies: [
                "DeclutterCommandLine", "DeclutterSupport", "DeclutterGeometry", "DeclutterClustering",
                "DeclutterPlacement", "DeclutterStyle", "DeclutterInput", "DeclutterMapContent", "DeclutterTileSources",
                "DeclutterMap", "DeclutterPNG", "DeclutterRender", "DeclutterServer", "DeclutterStaticAPI",
                "DeclutterTesting", "DeclutterTiles",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(name: "declutter", dependencies: ["DeclutterCLI"]),
        // The benchmarks, kept out of the shipped `declutter`; `declutter bench …` runs this program from beside it.
        .executableTarget(
            name: "declutter-bench",
            dependencies: [
                "CZlib", "DeclutterCommandLine", "DeclutterSupport", "DeclutterGeometry", "DeclutterClustering",
                "DeclutterPlacement", "DeclutterStyle",
                "DeclutterInput", "DeclutterMapContent", "DeclutterTileSources", "DeclutterMap", "DeclutterPNG",
                "DeclutterRender", "DeclutterServer",
                "DeclutterTesting", "DeclutterTiles",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // A tile server on 127.0.0.1 that answers as a test says (or not at all), shared by the render and CLI tests.
        .target(name: "TileTestServer", path: "Tests/TileTestServer"),
        // Tests only (in `Tests/`): seeded random numbers and the domain tests' fixtures, shared by the test targets.
        .target(
            name: "DeclutterTestSupport", dependencies: ["DeclutterGeometry"], path: "Tests/DeclutterTestSupport",
            exclude: ["Fixtures"]),
        .testTarget(name: "DeclutterSupportTests", dependencies: ["DeclutterSupport", "DeclutterTestSupport"]),
        .testTarget(
            name: "DeclutterDeflateTests",
            dependencies: ["DeclutterDeflate", "DeclutterTestSupport", "CLibDeflate", "CZlib"]),
        .testTarget(
            name: "DeclutterGeometryTests",
            dependencies: ["DeclutterGeometry", "DeclutterSupport", "DeclutterTestSupport"]),
        .testTarget(
            name: "DeclutterClusteringTests",
            dependencies: [
                "DeclutterClustering", "DeclutterInput", "DeclutterGeometry", "DeclutterSupport",
                "DeclutterTestSupport",
            ]),
        .testTarget(
            name: "DeclutterPlacementTests",
            dependencies: ["DeclutterPlacement", "DeclutterGeometry", "DeclutterSupport", "DeclutterTestSupport"]),
        .testTarget(
            name: "DeclutterStyleTests",
            dependencies: ["DeclutterStyle", "DeclutterPlacement", "DeclutterSupport", "DeclutterTestSupport"]),
        .testTarget(
            name: "DeclutterInputTests",
            dependencies: [
                "DeclutterInput", "DeclutterClustering", "DeclutterGeometry", "DeclutterSupport",
                "DeclutterTestSupport",
            ]),
        .testTarget(
            name: "DeclutterMapContentTests",
            dependencies: [
                "DeclutterMapContent", "DeclutterClustering", "DeclutterGeometry", "DeclutterInput",
                "DeclutterPlacement", "DeclutterStyle",
                "DeclutterSupport", "DeclutterTestSupport",
            ]
        ),
        // cairo's loader (libpng) and zlib are the references the codec's output is checked against.
        .testTarget(
            name: "DeclutterPNGTests",
            dependencies: [
                "DeclutterPNG", "DeclutterDeflate", "DeclutterSupport", "DeclutterTesting", "CCairo", "CZlib",
            ]),
        .testTarget(
            name: "DeclutterRenderTests",
            dependencies: [
                "DeclutterRender", "DeclutterGeometry", "DeclutterInput", "DeclutterMapContent", "DeclutterPNG",
                "DeclutterPlacement", "DeclutterStyle",
                "DeclutterSupport", "DeclutterTesting", "DeclutterTestSupport", "CZlib",
            ]
        ),
        .testTarget(
            name: "DeclutterMapTests",
            dependencies: [
                "DeclutterMap", "DeclutterTileSources", "DeclutterClustering", "DeclutterGeometry",
                "DeclutterMapContent", "DeclutterRender",
                "DeclutterPNG", "DeclutterStyle", "DeclutterSupport", "DeclutterTesting", "DeclutterTestSupport",
                "CSQLite", "TileTestServer",
            ]
        ),
        .testTarget(
            name: "DeclutterTilesTests",
            dependencies: [
                "DeclutterTiles", "DeclutterBasemap", "DeclutterClustering", "DeclutterDeflate", "DeclutterGeometry",
                "DeclutterInput",
                "DeclutterMapContent",
                "DeclutterStyle", "DeclutterSupport", "DeclutterPNG", "CLibDeflate", "CSQLite",
            ]
        ),
        .testTarget(name: "DeclutterTestingTests", dependencies: ["DeclutterTesting"], exclude: ["Fixtures"]),
        .testTarget(
            name: "DeclutterSnapshotTestingTests",
            dependencies: ["DeclutterSnapshotTesting", "DeclutterRender", "DeclutterStyle", "DeclutterTesting"]),
        .testTarget(
            name: "DeclutterServerTests",
            dependencies: [
                "DeclutterServer", "DeclutterBasemap", "DeclutterMap", "DeclutterStaticAPI", "DeclutterSupport",
                "DeclutterGeometry",
                "DeclutterClustering", "DeclutterPlacement", "DeclutterStyle", "DeclutterInput", "DeclutterMapContent",
                "DeclutterTileSources", "DeclutterPNG", "DeclutterRender", "DeclutterTiles", "TileTestServer",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "DeclutterCLITests",
            dependencies: [
                "declutter", "declutter-bench", "DeclutterCLI", "DeclutterStaticAPI", "DeclutterCommandLine",
                "DeclutterMap", "DeclutterServer", "DeclutterTesting", "DeclutterSupport", "DeclutterGeometry",
                "DeclutterClustering", "DeclutterPlacement", "DeclutterStyle", "DeclutterInput", "DeclutterMapContent",
                "DeclutterTileSources", "DeclutterPNG", "DeclutterRender", "DeclutterTiles",
                "TileTestServer",
            ]
        ),
    ]
)
