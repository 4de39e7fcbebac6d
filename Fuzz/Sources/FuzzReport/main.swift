import FrugalFuzzTargets

/// report.json files come from other CI jobs (FuzzTargets.report: decode, every renderer, compare).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReport(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzTargets.report(Array(UnsafeRawBufferPointer(start: start, count: count)))
    return 0
}
