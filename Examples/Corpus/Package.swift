// swift-tools-version:6.1
// A corpus of small good and bad app cores in everyday Swift — Foundation, GCD, async/await,
// URLSession, Timer, NotificationCenter — written from the guide and FrugalKit's public docs,
// with nothing of FrugalKit but `Application.main` (FrugalApp) and the delegate. One good and one
// bad app per audit the built-in suite pairs; `frugal verdicts --config frugal.yml` judges them.
import PackageDescription

let package = Package(
    name: "Corpus",
    dependencies: [
        .package(name: "Frugal", path: "../.."),
    ],
    targets: [
        .executableTarget(name: "CorpusApps", dependencies: [.product(name: "FrugalKit", package: "Frugal")]),
    ],
    swiftLanguageModes: [.v6]
)
