// swift-tools-version:6.1
// Frugal's own costs, measured with package-benchmark. A package of its own (as swift-nio does)
// so that building or depending on Frugal never pulls package-benchmark in.
//   cd Benchmarks && swift package benchmark
import PackageDescription
import class Foundation.ProcessInfo
import struct Foundation.URL

// SwiftPM names a path dependency after its directory, which differs between checkouts
// (main, a worktree, CI's clone), so the name is worked out rather than written down.
let frugal = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "FrugalBenchmarks",
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/package-benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "FrugalCoreBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "FrugalCore", package: frugal),
            ],
            path: "Benchmarks/FrugalCoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .executableTarget(
            name: "FrugalProbeBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "FrugalProbe", package: frugal),
            ],
            path: "Benchmarks/FrugalProbeBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        // The shaping proxy's accuracy and throughput against its targets, and tc tbf beside it.
        //   cd Benchmarks && swift package benchmark --target ShapingProxyBenchmarks
        .executableTarget(
            name: "ShapingProxyBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "FrugalCore", package: frugal),
                .product(name: "FrugalHarness", package: frugal),
            ],
            path: "Benchmarks/ShapingProxyBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        // A report of 1,000,000 events: build, HTML and Markdown, and JSON encoding.
        .executableTarget(
            name: "FrugalReportBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "FrugalCore", package: frugal),
                .product(name: "FrugalReport", package: frugal),
            ],
            path: "Benchmarks/FrugalReportBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
