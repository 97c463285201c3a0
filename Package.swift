// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Declutter",
    // Synchronization's Mutex; on Linux every Swift 6 toolchain has it.
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "DeclutterCore", targets: ["DeclutterCore"]),
        .library(name: "DeclutterPNG", targets: ["DeclutterPNG"]),
        .library(name: "DeclutterRender", targets: ["DeclutterRender"]),
        .library(name: "DeclutterTiles", targets: ["DeclutterTiles"]),
        .library(name: "DeclutterServer", targets: ["DeclutterServer"]),
        .library(name: "DeclutterTesting", targets: ["DeclutterTesting"]),
        .library(name: "DeclutterSnapshotTesting", targets: ["DeclutterSnapshotTesting"]),
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
    ],
    targets: [
        // Cairo and Pango from the system (Debian: libcairo2-dev libpango1.0-dev).
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "pangocairo",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev"]), .brew(["cairo", "pango"])]
        ),
        // libcurl's header (Debian: libcurl4-openssl-dev), for HTTP tiles; the library is opened at run time, not linked.
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]),
        // zlib from the system (Debian: zlib1g-dev, which libcairo2-dev brings), for PNG and the basemap's cells.
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        // libdeflate from the system (Debian: libdeflate-dev): PNG decoding inflates with it, two to three times as fast
        // as zlib (`declutter-bench png`).
        .systemLibrary(name: "CLibDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"]), .brew(["libdeflate"])]),
        // SQLite from the system, for MBTiles tile sets (Debian: libsqlite3-dev).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        // The files every binary carries (bundled styles, the basemap, the demo's data), laid into it by the
        // assembler so that a copied `declutter` works alone. Paths in resources.S are relative to the package root.
        .target(name: "CDeclutterResources", exclude: ["Basemap", "Demo"], cSettings: [.headerSearchPath("../..")]),
        .target(name: "DeclutterCore"),
        // PNG encoding (Declutter's own deflate, or zlib) and decoding (inflated by libdeflate), on pixel buffers: no
        // Cairo, Pango or SQLite.
        .target(name: "DeclutterPNG", dependencies: ["CLibDeflate", "CZlib", "DeclutterCore"]),
        .target(name: "DeclutterRender", dependencies: ["CCairo", "CCurl", "CZlib", "CSQLite", "CDeclutterResources", "DeclutterCore", "DeclutterPNG"]),
        // Cluster vector tiles (Mapbox Vector Tile 2.1), the tileset archives they go into (MBTiles, PMTiles, a folder)
        // and the MapLibre style that draws them with a sprite sheet; no Cairo. Small tiles are gzipped by DeclutterPNG's
        // FixedCodeDeflater, which shares the PNG encoder's bit writer and code tables.
        .target(name: "DeclutterTiles", dependencies: ["CLibDeflate", "CSQLite", "CZlib", "DeclutterCore", "DeclutterPNG"]),
        // Image comparison and golden files read and write PNG only, so tests that diff images need no Cairo.
        .target(name: "DeclutterTesting", dependencies: ["DeclutterPNG", "DeclutterCore"]),
        // swift-snapshot-testing strategies live apart so that the CLI, which compares images too, does not link XCTest.
        .target(
            name: "DeclutterSnapshotTesting",
            dependencies: ["DeclutterTesting", "DeclutterRender", .product(name: "SnapshotTesting", package: "swift-snapshot-testing")]
        ),
        // The HTTP service (`declutter serve`): static maps in Mapbox's URL shape, cluster tiles, sprites, metrics, on
        // Hummingbird, rendering on a bounded pool of threads off the event loops.
        .target(
            name: "DeclutterServer",
            dependencies: [
                "DeclutterCore", "DeclutterRender", "DeclutterTiles",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The command line's commands, shared by the two programs below.
        .target(
            name: "DeclutterCLI",
            dependencies: [
                "DeclutterCore", "DeclutterPNG", "DeclutterRender", "DeclutterServer", "DeclutterTesting", "DeclutterTiles",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(name: "declutter", dependencies: ["DeclutterCLI"]),
        // The benchmarks, kept out of the shipped `declutter`; `declutter bench …` runs this program from beside it.
        .executableTarget(
            name: "declutter-bench",
            dependencies: [
                "CZlib", "DeclutterCLI", "DeclutterCore", "DeclutterPNG", "DeclutterRender", "DeclutterTesting", "DeclutterTiles",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // A tile server on 127.0.0.1 that answers as a test says (or not at all), shared by the render and CLI tests.
        .target(name: "TileTestServer", path: "Tests/TileTestServer"),
        .testTarget(name: "DeclutterCoreTests", dependencies: ["DeclutterCore"], exclude: ["Fixtures"]),
        // cairo's loader (libpng) and zlib are the references the codec's output is checked against.
        .testTarget(name: "DeclutterPNGTests", dependencies: ["DeclutterPNG", "DeclutterTesting", "CCairo", "CZlib"]),
        .testTarget(
            name: "DeclutterRenderTests",
            dependencies: ["DeclutterRender", "DeclutterPNG", "DeclutterTesting", "CSQLite", "CZlib", "TileTestServer"]
        ),
        .testTarget(name: "DeclutterTilesTests", dependencies: ["DeclutterTiles", "DeclutterPNG", "CLibDeflate", "CSQLite"]),
        .testTarget(name: "DeclutterTestingTests", dependencies: ["DeclutterTesting"], exclude: ["Fixtures"]),
        .testTarget(name: "DeclutterSnapshotTestingTests", dependencies: ["DeclutterSnapshotTesting"]),
        .testTarget(
            name: "DeclutterServerTests",
            dependencies: [
                "DeclutterServer", "DeclutterCLI", "DeclutterCore", "DeclutterPNG", "DeclutterRender", "DeclutterTiles", "TileTestServer",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "DeclutterCLITests",
            dependencies: ["declutter", "declutter-bench", "DeclutterCLI", "DeclutterServer", "DeclutterTesting", "DeclutterCore", "DeclutterPNG",
                           "TileTestServer"]
        ),
    ]
)
