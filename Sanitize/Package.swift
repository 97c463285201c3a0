// swift-tools-version: 6.0
import PackageDescription

// The suites that read outside input (the parsers, the style, the tile sources) and the PNG codec's, run under
// AddressSanitizer by CI. They live in Declutter's Tests/ and are linked here (Tests/ holds symbolic links), so that
// `swift test --sanitize=address` in this folder builds only the modules they test: not the server's NIO, Hummingbird
// and BoringSSL, nor the CLI, which a sanitized `swift test` of the whole package compiles for nothing.
let package = Package(
    name: "DeclutterSanitize",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Declutter", path: "..")],
    targets: [
        .target(
            name: "DeclutterTestSupport", dependencies: [declutter("DeclutterGeometry")],
            path: "Tests/DeclutterTestSupport", exclude: ["Fixtures"]),
        .target(name: "TileTestServer", path: "Tests/TileTestServer"),
        .testTarget(
            name: "DeclutterSupportTests", dependencies: ["DeclutterTestSupport", declutter("DeclutterSupport")]),
        .testTarget(
            name: "DeclutterGeometryTests",
            dependencies: ["DeclutterTestSupport", declutter("DeclutterGeometry"), declutter("DeclutterSupport")]),
        .testTarget(
            name: "DeclutterPlacementTests",
            dependencies: [
                "DeclutterTestSupport", declutter("DeclutterPlacement"), declutter("DeclutterGeometry"),
                declutter("DeclutterSupport"),
            ]),
        .testTarget(
            name: "DeclutterStyleTests",
            dependencies: [
                "DeclutterTestSupport", declutter("DeclutterStyle"), declutter("DeclutterPlacement"),
                declutter("DeclutterSupport"),
            ]),
        .testTarget(
            name: "DeclutterInputTests",
            dependencies: [
                "DeclutterTestSupport", declutter("DeclutterInput"), declutter("DeclutterClustering"),
                declutter("DeclutterGeometry"), declutter("DeclutterSupport"),
            ]),
        .testTarget(
            name: "DeclutterPNGTests",
            dependencies: [
                declutter("DeclutterPNG"), declutter("DeclutterDeflate"), declutter("DeclutterSupport"),
                declutter("DeclutterTesting"), declutter("CCairo"), declutter("CZlib"),
            ]),
        .testTarget(
            name: "DeclutterMapTests",
            dependencies: [
                "DeclutterTestSupport", "TileTestServer", declutter("DeclutterMap"), declutter("DeclutterTileSources"),
                declutter("DeclutterClustering"), declutter("DeclutterGeometry"), declutter("DeclutterMapContent"),
                declutter("DeclutterRender"), declutter("DeclutterPNG"), declutter("DeclutterStyle"),
                declutter("DeclutterSupport"), declutter("DeclutterTesting"), declutter("CSQLite"),
            ]),
    ]
)

/// A library of the Declutter package.
func declutter(_ product: String) -> Target.Dependency { .product(name: product, package: "Declutter") }
