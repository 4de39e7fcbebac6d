import FrugalFuzzTargets

/// The event pipe is the workload's to write (FuzzTargets.eventStream).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEventStream(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzTargets.eventStream(Array(UnsafeRawBufferPointer(start: start, count: count)))
    return 0
}
