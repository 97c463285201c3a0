// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Declutter",
    products: [
        .library(name: "DeclutterCore", targets: ["DeclutterCore"]),
        .library(name: "DeclutterRender", targets: ["DeclutterRender"]),
        .library(name: "DeclutterTesting", targets: ["DeclutterTesting"]),
        .executable(name: "declutter", targets: ["declutter"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // Cairo, Pango and zlib from the system (Debian: libcairo2-dev libpango1.0-dev).
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "pangocairo",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev"]), .brew(["cairo", "pango"])]
        ),
        .target(name: "DeclutterCore"),
        .target(name: "DeclutterRender", dependencies: ["CCairo", "DeclutterCore"]),
        .target(name: "DeclutterTesting", dependencies: ["DeclutterRender"]),
        .executableTarget(
            name: "declutter",
            dependencies: [
                "DeclutterCore", "DeclutterRender", "DeclutterTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "DeclutterCoreTests", dependencies: ["DeclutterCore"]),
        .testTarget(name: "DeclutterRenderTests", dependencies: ["DeclutterRender", "DeclutterTesting"]),
        .testTarget(name: "DeclutterTestingTests", dependencies: ["DeclutterTesting"], exclude: ["Fixtures"]),
        .testTarget(name: "DeclutterCLITests", dependencies: ["declutter", "DeclutterTesting"]),
    ]
)
