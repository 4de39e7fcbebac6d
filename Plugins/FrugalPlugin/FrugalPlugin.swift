import Foundation
import PackagePlugin

/// `swift package frugal run|list|compare|report|...`: runs Frugal on the package it is invoked in,
/// as `swift package benchmark` runs package-benchmark. For `run`, the products `frugal.yml`
/// names are built in release first; then `frugal` runs with the same arguments, and the plugin
/// exits with its exit code (0, 1 bad input, 2 findings, 3 harness failure).
///
/// `frugal` itself is found, in order: `FRUGAL_TOOL` (a path), `.build/release/frugal` or
/// `.build/debug/frugal` in the Frugal checkout this plugin comes from, `frugal` on `PATH`;
/// failing those, it is built once in release in that checkout.
@main
struct FrugalPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let packageDirectory = context.package.directoryURL
        let frugal = try locateFrugal(context: context)
        var arguments = arguments.isEmpty ? ["run"] : arguments
        if arguments[0] == "run" && !arguments.contains("--help") && !arguments.contains("-h") {
            var list = ["list", "--products"]
            if let index = arguments.firstIndex(of: "--config"), index + 1 < arguments.count {
                list += ["--config", arguments[index + 1]]
            }
            let listed = try Self.run(frugal, list, in: packageDirectory, capture: true)
            guard listed.status == 0 else { Self.exit(listed.status) }
            let products = listed.output.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
            var directory: URL?
            for product in products {
                Diagnostics.progress("frugal: building \(product) in release")
                let result = try packageManager.build(.product(product), parameters: .init(configuration: .release, echoLogs: true))
                guard result.succeeded, let artifact = result.builtArtifacts.first(where: { $0.url.lastPathComponent == product }) else {
                    Diagnostics.error("frugal: product \(product) did not build")
                    Self.exit(1)
                }
                directory = artifact.url.deletingLastPathComponent()
            }
            if let directory, !arguments.contains("--products-dir") {
                arguments.insert(contentsOf: ["--products-dir", directory.path], at: 1)
            }
        }
        let result = try Self.run(frugal, arguments, in: packageDirectory, capture: false)
        Self.exit(result.status)
    }

    /// `frugal`: an explicit path, a build in Frugal's checkout, `PATH`, or a new release build.
    func locateFrugal(context: PluginContext) throws -> URL {
        let manager = FileManager.default
        if let path = ProcessInfo.processInfo.environment["FRUGAL_TOOL"], !path.isEmpty {
            guard manager.isExecutableFile(atPath: path) else {
                Diagnostics.error("frugal: FRUGAL_TOOL=\(path) is not an executable")
                Self.exit(1)
            }
            return URL(fileURLWithPath: path)
        }
        let checkout = frugalCheckout(context: context)
        for configuration in ["release", "debug"] {
            let candidate = checkout.appendingPathComponent(".build/\(configuration)/frugal")
            if manager.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("frugal")
            if manager.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        Diagnostics.progress("frugal: building frugal in release in \(checkout.path) (once; set FRUGAL_TOOL to use another)")
        for product in ["frugal-workload-host", "frugal"] {
            let build = try Self.run(URL(fileURLWithPath: "/usr/bin/env"),
                                     ["swift", "build", "-c", "release", "--package-path", checkout.path, "--product", product],
                                     in: checkout, capture: false)
            guard build.status == 0 else {
                Diagnostics.error("frugal: building \(product) in \(checkout.path) failed (exit \(build.status))")
                Self.exit(3)
            }
        }
        return checkout.appendingPathComponent(".build/release/frugal")
    }

    /// The Frugal package this plugin belongs to: the dependency that has the FrugalKit product,
    /// else the checkout this source file was compiled from.
    func frugalCheckout(context: PluginContext) -> URL {
        var queue = context.package.dependencies.map(\.package)
        while let package = queue.first {
            queue.removeFirst()
            if package.products.contains(where: { $0.name == "FrugalKit" }) { return package.directoryURL }
            queue += package.dependencies.map(\.package)
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    static func run(_ executable: URL, _ arguments: [String], in directory: URL, capture: Bool) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let pipe = Pipe()
        if capture { process.standardOutput = pipe }
        try process.run()
        let output = capture ? pipe.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    static func exit(_ status: Int32) -> Never {
        Foundation.exit(status)
    }
}
