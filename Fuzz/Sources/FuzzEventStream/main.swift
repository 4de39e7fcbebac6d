import FrugalCore

/// The event pipe is the workload's to write. The first byte picks where the input is split into
/// two reads, so lines that straddle reads are exercised too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEventStream(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    guard let first = bytes.first else { return 0 }
    let split = bytes.count > 1 ? 1 + Int(first) % (bytes.count - 1) : 1
    var decoder = EventStreamDecoder()
    _ = decoder.feed(bytes[1..<split])
    _ = decoder.feed(bytes[split...])
    return 0
}
