// swift-tools-version:6.1
// A weather app's core written the way Swift apps are written today — an @MainActor model,
// async/await URLSession, a Foundation Timer, DispatchQueue.main for UI state, a Codable store —
// profiled with Frugal unchanged: FrugalKit's main thread is the main queue, the main actor and
// RunLoop.main (docs/PORTING.md).
import PackageDescription

let package = Package(
    name: "WeatherApp",
    dependencies: [
        .package(name: "Frugal", path: "../.."),
    ],
    targets: [
        // The app's logic: the model, the store, the client and the delegate.
        .target(name: "WeatherCore", dependencies: [.product(name: "FrugalKit", package: "Frugal")]),
        // The executable Frugal runs: the good app and its three bad variants.
        .executableTarget(name: "WeatherProfile", dependencies: ["WeatherCore", .product(name: "FrugalKit", package: "Frugal")]),
    ],
    swiftLanguageModes: [.v6]
)
