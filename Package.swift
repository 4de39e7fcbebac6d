// swift-tools-version:6.1
// Frugal: a performance and energy profiling harness. The layout (docs/ARCHITECTURE.md): the wire
// protocol (FrugalProtocol), a pure model (FrugalCore), system calls (FrugalSystem), counters
// (FrugalProbe), the app runtime (FrugalKit), orchestration
// (FrugalHarness), renderers (FrugalReport), config (FrugalConfig), history (FrugalHistory),
// sample apps (FrugalWorkloads) and the CLI. Linux only (epoll, /proc, cgroups, perf events): no
// Apple platform is declared because none is supported.
import PackageDescription

let package = Package(
    name: "Frugal",
    products: [
        .executable(name: "frugal", targets: ["frugal"]),
        .executable(name: "frugal-workload-host", targets: ["frugal-workload-host"]),
        // The wire protocol between the harness and an app (FrugalKit links it, not FrugalCore).
        .library(name: "FrugalProtocol", targets: ["FrugalProtocol"]),
        .library(name: "FrugalCore", targets: ["FrugalCore"]),
        .library(name: "FrugalProbe", targets: ["FrugalProbe"]),
        .library(name: "FrugalKit", targets: ["FrugalKit"]),
        // Unit tests of an app's delegate: drives it through the app's life in the test's process.
        .library(name: "FrugalTesting", targets: ["FrugalTesting"]),
        .library(name: "FrugalHarness", targets: ["FrugalHarness"]),
        .library(name: "FrugalReport", targets: ["FrugalReport"]),
        // For the fuzz targets in Fuzz/ (a package of its own, so the fuzzer never touches this build).
        .library(name: "FrugalConfig", targets: ["FrugalConfig"]),
        // The suite as a library: plan, run, report, history (what `frugal run` is over).
        .library(name: "FrugalPipeline", targets: ["FrugalPipeline"]),
        // The fuzz targets' bodies: Fuzz/ runs them under libFuzzer, the tests replay their seeds.
        .library(name: "FrugalFuzzTargets", targets: ["FrugalFuzzTargets"]),
        // `swift package frugal run` in a user's package (Examples/ and docs/YOUR-APP.md).
        .plugin(name: "FrugalPlugin", targets: ["FrugalPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        // Only its UnixSignals library (SIGINT/SIGTERM as an async sequence over dispatch sources).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        // Debian's libpapi-dev ships papi.pc; the shim header exposes macros Swift cannot import.
        .systemLibrary(
            name: "CPAPI",
            pkgConfig: "papi",
            providers: [.apt(["libpapi-dev"])]
        ),
        // Linux headers Swift's Glibc module does not export (epoll, eventfd, gettid).
        .target(name: "CFrugalSystem"),
        // zlib, for the origin server's deflate measure (Foundation on Linux has no compression API).
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        // The system's OpenSSL (Debian's libssl-dev ships openssl.pc), for HTTPS through the run's
        // proxy (docs/NETWORK.md): linked, not compiled, unlike swift-nio-ssl's BoringSSL.
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        // The run CA's certificates and the TLS server context, in C (OpenSSL's X509 builders and
        // callbacks are C-shaped); the TLS engine itself drives OpenSSL from Swift.
        .target(name: "CFrugalTLS", dependencies: ["COpenSSL"]),
        // The wire protocol (version, descriptors, control commands, events, environment names) and
        // the records both sides share; no analysis, no dependency: what an app links of the model.
        .target(name: "FrugalProtocol"),
        .target(
            name: "FrugalCore",
            // Re-exports FrugalProtocol (Exports.swift), so its users see the protocol as before.
            dependencies: ["FrugalProtocol"],
            // The radio profiles' JSON files are reference data that a test checks against the
            // built-in profiles; the library never loads them.
            exclude: ["Radio/Profiles"]
        ),
        // The system-call layer an app's runtime needs too (each call wrapped once with its errno,
        // the clock, per-thread counters through PAPI or getrusage): no FrugalCore.
        .target(name: "FrugalSystem", dependencies: ["CPAPI", "CFrugalSystem", "FrugalProtocol"]),
        // The harness's probes (/proc readers, energy, task exits); re-exports FrugalSystem.
        .target(name: "FrugalProbe", dependencies: ["CPAPI", "CFrugalSystem", "FrugalSystem", "FrugalCore"]),
        // libdispatch's main-queue hooks and CoreFoundation's main run loop, which FrugalKit's main
        // run loop services (both libraries come with Foundation; named so a C-only link finds them).
        .target(name: "CFrugalMainLoop", linkerSettings: [.linkedLibrary("dispatch"), .linkedLibrary("Foundation")]),
        // No FrugalCore, not even through FrugalProbe: an app links the protocol, not the analysis
        // (scripts/check-module-graph.sh, a CI step, fails if it comes back).
        .target(name: "FrugalKit", dependencies: ["FrugalSystem", "FrugalProtocol", "CFrugalSystem", "CFrugalMainLoop"]),
        .target(
            name: "FrugalHarness",
            // SwiftNIO first: its chain of modules (Atomics, NIOCore, NIOPosix, NIOHTTP1) is the
            // longest path to this target in a clean build, and listed first it started sooner
            // (Atomics at 43 s instead of 67 s; the whole clean `swift build --build-tests`
            // 135 s → 124 s, one build each on this 2-core machine, docs/CI.md).
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                "FrugalCore", "FrugalProbe", "CFrugalSystem", "CZlib",
                "COpenSSL", "CFrugalTLS",
            ]
        ),
        // FrugalProbe for FileTreeRemoval: an old report set is removed without leaving its mount.
        .target(name: "FrugalReport", dependencies: ["FrugalCore", "CFrugalSystem", "FrugalProbe"]),
        // The system's SQLite (Debian's libsqlite3-dev ships sqlite3.pc), for the run history:
        // linked, not compiled (GRDB, which it replaced, cost each clean build ~34 s of CPU in
        // debug and ~78 s in release, docs/CI.md).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // The run history (SQLite's C API, wrapped once in SQLite.swift), kept apart so FrugalCore
        // and FrugalReport stay pure.
        .target(name: "FrugalHistory", dependencies: ["FrugalCore", "CSQLite"]),
        // Assertion config files (YAML through Yams, or JSON) parsed into FrugalCore's pure assertion types.
        // BoundedYAML also imports CYaml (libyaml's event parser), a target of Yams that is not a
        // product of its own and so cannot be named here; it comes with the Yams product.
        .target(name: "FrugalConfig", dependencies: ["FrugalCore", .product(name: "Yams", package: "Yams")]),
        // What the libFuzzer targets in Fuzz/ call, built with everything else so the tests replay the
        // committed seeds and a bounded set of mutations through the same code (FuzzReplayTests).
        .target(name: "FrugalFuzzTargets", dependencies: ["FrugalCore", "FrugalConfig", "FrugalReport"]),
        // A suite from plans to report set, one way for the CLI, tests and other tools (docs/ARCHITECTURE.md).
        .target(name: "FrugalPipeline", dependencies: ["FrugalCore", "FrugalHarness", "FrugalReport", "FrugalHistory", "FrugalConfig", "FrugalWorkloads"]),
        .target(name: "FrugalTesting", dependencies: ["FrugalKit", "FrugalProtocol", "FrugalCore", "FrugalProbe"]),
        .target(name: "FrugalWorkloads", dependencies: ["FrugalKit", "FrugalCore", "FrugalProbe"]),
        // The process every built-in workload runs in: it links only the app runtime and the
        // sample apps, so a workload's footprint is not inflated by the harness (SwiftNIO).
        .executableTarget(name: "frugal-workload-host", dependencies: ["FrugalWorkloads", "FrugalKit", "FrugalCore"]),
        .executableTarget(
            name: "frugal",
            dependencies: [
                "FrugalCore", "FrugalProbe", "FrugalHarness", "FrugalReport", "FrugalWorkloads", "CFrugalSystem",
                "FrugalHistory", "FrugalConfig", "FrugalPipeline",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        // No tool dependency: building `frugal` (SwiftNIO) into every user's package would
        // cost minutes; the plugin finds an existing build or builds it once in Frugal's checkout.
        .plugin(
            name: "FrugalPlugin",
            capability: .command(
                intent: .custom(verb: "frugal", description: "Build the apps frugal.yml names in release and run Frugal on them (run, list, compare, report)."),
                permissions: [.writeToPackageDirectory(reason: "Frugal writes its reports to Reports/ and its run history to .frugal/ in the package.")]
            )
        ),
        // The apps the idiom-matrix tests run (iOS idioms under Application.main); test-only, so
        // the workload host never loads FoundationNetworking.
        .executableTarget(name: "frugal-idiom-fixtures", dependencies: ["FrugalKit"], path: "Tests/IdiomFixtures"),
        // Reports built by hand and a program spawned the plainest way (DirectSpawn), shared by the
        // test targets that need them (not in any product).
        .target(name: "FrugalTestSupport", dependencies: ["FrugalCore"], path: "Tests/FrugalTestSupport"),
        .testTarget(name: "FrugalCoreTests", dependencies: ["FrugalCore", "FrugalProtocol", "FrugalTestSupport"]),
        .testTarget(name: "FrugalProbeTests", dependencies: ["FrugalProbe", "FrugalCore", "CFrugalSystem"]),
        .testTarget(name: "FrugalKitTests", dependencies: ["FrugalKit", "FrugalCore", "FrugalProbe"]),
        .testTarget(name: "FrugalTestingTests", dependencies: ["FrugalTesting", "FrugalKit", "FrugalCore"]),
        .testTarget(
            name: "FrugalHarnessTests",
            dependencies: ["FrugalHarness", "FrugalCore", "FrugalProbe", "FrugalKit", "FrugalWorkloads", "FrugalReport", "frugal-workload-host",
                           "frugal-idiom-fixtures", "COpenSSL", "FrugalTestSupport"]
        ),
        .testTarget(name: "FrugalReportTests", dependencies: ["FrugalReport", "FrugalCore", "FrugalHarness", "FrugalTestSupport", "frugal-workload-host"]),
        // Fixtures/: a history written by the GRDB version, which the store must still read and append to.
        .testTarget(name: "FrugalHistoryTests", dependencies: ["FrugalHistory", "FrugalCore", "CSQLite"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "FrugalConfigTests", dependencies: ["FrugalConfig", "FrugalCore"]),
        .testTarget(name: "FrugalFuzzTargetsTests", dependencies: ["FrugalFuzzTargets"]),
        .testTarget(name: "FrugalPipelineTests", dependencies: ["FrugalPipeline", "FrugalHarness", "FrugalCore", "FrugalReport", "FrugalConfig", "FrugalHistory", "FrugalWorkloads", "frugal-workload-host"]),
        .testTarget(name: "FrugalCLITests", dependencies: ["frugal", "frugal-workload-host", "FrugalTestSupport", .product(name: "Yams", package: "Yams")]),
    ],
    // Swift 6 language mode: strict concurrency checking, data races are compile errors.
    swiftLanguageModes: [.v6]
)
