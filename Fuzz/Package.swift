// swift-tools-version: 6.0
import PackageDescription

// The fuzz harness lives in a package of its own so that a plain `swift build` or `swift test` of Declutter never
// builds it: it has no `main` of its own and links only with `-sanitize=fuzzer`, whose libFuzzer provides one.
// Build and run it with `Fuzz/run.sh`.
let package = Package(
    name: "DeclutterFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Declutter", path: "..")],
    targets: [
        // SQLite for the mbtiles target, which writes databases of its own; Declutter's CSQLite is not a product.
        .systemLibrary(name: "CSQLiteFuzz", pkgConfig: "sqlite3"),
        .executableTarget(
            name: "declutter-fuzz",
            dependencies: [
                "CSQLiteFuzz",
                .product(name: "DeclutterClustering", package: "Declutter"),
                .product(name: "DeclutterGeometry", package: "Declutter"),
                .product(name: "DeclutterInput", package: "Declutter"),
                .product(name: "DeclutterMap", package: "Declutter"),
                .product(name: "DeclutterMapContent", package: "Declutter"),
                .product(name: "DeclutterPNG", package: "Declutter"),
                .product(name: "DeclutterPlacement", package: "Declutter"),
                .product(name: "DeclutterRender", package: "Declutter"),
                .product(name: "DeclutterStaticAPI", package: "Declutter"),
                .product(name: "DeclutterStyle", package: "Declutter"),
                .product(name: "DeclutterSupport", package: "Declutter"),
                .product(name: "DeclutterTesting", package: "Declutter"),
                .product(name: "DeclutterTileSources", package: "Declutter"),
                .product(name: "DeclutterTiles", package: "Declutter"),
            ],
            // libFuzzer supplies `main`; the harness only exports LLVMFuzzerTestOneInput.
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ]
)
