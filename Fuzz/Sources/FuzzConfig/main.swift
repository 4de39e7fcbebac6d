import FrugalFuzzTargets

/// A config file is anyone's to write (FuzzTargets.config: both loaders).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzTargets.config(Array(UnsafeRawBufferPointer(start: start, count: count)))
    return 0
}
