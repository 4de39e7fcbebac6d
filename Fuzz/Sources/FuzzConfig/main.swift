import Foundation
import FrugalConfig

/// A config file is anyone's to write: any text must give a config or a one-line error, quickly
/// (scripts/fuzz.sh runs libFuzzer with -timeout=2). Both loaders: assertions (`--config`) and
/// the project's frugal.yml (apps, scenarios, assert), whose relative paths resolve in an empty
/// directory.
enum Scratch {
    /// Not a top-level `let`: in Swift 6 those belong to the main actor, and libFuzzer calls in
    /// from a plain C function.
    static let emptyDirectory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-fuzz-config-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()
}

func check(_ body: () throws -> Void) {
    do {
        try body()
    } catch let error as ConfigError {
        let line = error.description
        precondition(!line.contains("\n") && line.count < 1000, "a config error must be one short line")
    } catch {
        preconditionFailure("a config loader threw something other than ConfigError: \(error)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    check { _ = try AssertionConfigLoader.parse(text, file: "fuzz.yml") }
    check { _ = try ProjectConfigLoader.parse(text, file: "frugal.yml", directory: Scratch.emptyDirectory) }
    return 0
}
