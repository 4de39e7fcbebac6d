// swift-tools-version:6.1
// A small notes app's core, profiled with Frugal as a user would: it depends on Frugal by path,
// names its app and scenarios in frugal.yml, and runs with `swift package frugal run`.
import PackageDescription

let package = Package(
    name: "NotesApp",
    dependencies: [
        .package(name: "Frugal", path: "../.."),
    ],
    targets: [
        // The app's logic: a local store, a sync client, a thumbnail cache, and the app delegate.
        .target(name: "NotesCore", dependencies: [.product(name: "FrugalKit", package: "Frugal")]),
        // The executable Frugal runs: it hands the delegate to FrugalKit.
        .executableTarget(name: "NotesProfile", dependencies: ["NotesCore", .product(name: "FrugalKit", package: "Frugal")]),
    ],
    swiftLanguageModes: [.v6]
)
