import Foundation
import FrugalConfig
import FrugalCore

/// Finds each app's executable: a path from `frugal.yml`, or a SwiftPM product built in release
/// (by the plugin, which passes a products directory, or here with `swift build`).
struct ProductBuilder {
    let project: ProjectConfig
    let productsDirectory: String?
    /// Hears what is being built (progress for a terminal); nil: quiet.
    let log: ((String) -> Void)?

    func executables(for apps: [AppConfig]) throws -> [String: String] {
        var result: [String: String] = [:]
        var built: [String: String] = [:]
        for app in apps {
            switch app.source {
            case .executable(let path):
                result[app.name] = path
            case .product(let product):
                if built[product] == nil { built[product] = try executable(product: product, app: app) }
                result[app.name] = built[product]
            }
        }
        return result
    }

    private func problem(_ app: AppConfig, _ text: String) -> PipelineFailure {
        .badInput(ConfigError(file: project.file, line: app.line, problem: "app '\(app.name)': \(text)").description)
    }

    private func executable(product: String, app: AppConfig) throws -> String {
        if let productsDirectory {
            let path = URL(fileURLWithPath: productsDirectory).appendingPathComponent(product).path
            guard FileManager.default.isExecutableFile(atPath: path) else {
                throw problem(app, "product '\(product)' is not in \(productsDirectory)")
            }
            return path
        }
        let package = project.directory.path
        guard FileManager.default.fileExists(atPath: project.directory.appendingPathComponent("Package.swift").path) else {
            throw problem(app, "product '\(product)' needs a Package.swift beside \(project.file)")
        }
        log?("frugal: building \(product) in release (swift build -c release --product \(product))")
        let build = try swift(["build", "-c", "release", "--package-path", package, "--product", product], capture: false)
        guard build.status == 0 else { throw problem(app, "product '\(product)' did not build (swift build exited \(build.status))") }
        let binPath = try swift(["build", "-c", "release", "--package-path", package, "--show-bin-path"], capture: true)
        let directory = binPath.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let path = URL(fileURLWithPath: directory).appendingPathComponent(product).path
        guard binPath.status == 0, FileManager.default.isExecutableFile(atPath: path) else {
            throw problem(app, "product '\(product)' built, but \(path) is not an executable")
        }
        return path
    }

    /// Runs `swift` with `arguments`; its output goes to standard error (progress) unless captured.
    private func swift(_ arguments: [String], capture: Bool) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift"] + arguments
        let pipe = Pipe()
        process.standardOutput = capture ? pipe : FileHandle.standardError
        do {
            try process.run()
        } catch {
            throw PipelineFailure.badInput("cannot run swift to build the products in \(project.file): \(error)")
        }
        let output = capture ? pipe.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
