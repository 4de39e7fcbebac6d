import FrugalConfig

/// A config file is anyone's to write: any text must give an assertion set or a one-line error,
/// quickly (scripts/fuzz.sh runs libFuzzer with -timeout=2).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    do {
        _ = try AssertionConfigLoader.parse(text, file: "fuzz.yml")
    } catch let error as ConfigError {
        let line = error.description
        precondition(!line.contains("\n") && line.count < 1000, "a config error must be one short line")
    } catch {
        preconditionFailure("AssertionConfigLoader threw something other than ConfigError: \(error)")
    }
    return 0
}
