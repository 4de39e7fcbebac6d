// swift-tools-version:6.1
// libFuzzer targets for what Frugal reads from others: the event stream a workload writes, config
// files, and report.json files other CI jobs produce. A package of its own (depending on Frugal by
// path) so the fuzzer's instrumentation never reaches Frugal's own build. Built and run by
// scripts/fuzz.sh:  swift build -c release --sanitize=fuzzer
import PackageDescription

let package = Package(
    name: "FrugalFuzz",
    dependencies: [.package(name: "Frugal", path: "..")],
    targets: [
        // Each target's body is in Frugal's FrugalFuzzTargets, which the tests replay too.
        .executableTarget(name: "FuzzEventStream", dependencies: [.product(name: "FrugalFuzzTargets", package: "Frugal")]),
        .executableTarget(name: "FuzzConfig", dependencies: [.product(name: "FrugalFuzzTargets", package: "Frugal")]),
        .executableTarget(name: "FuzzReport", dependencies: [.product(name: "FrugalFuzzTargets", package: "Frugal")]),
    ],
    swiftLanguageModes: [.v6]
)
