import Benchmark
import Foundation
import FrugalCore
import FrugalHarness
#if canImport(Glibc)
import Glibc
#endif

/// The shaping proxy's accuracy and speed, against its targets (issue 5):
/// - 1 MB through a 1 Mbit/s profile takes 8.0 s ± 3 %;
/// - with 100 ms one-way latency a 1-byte request and response take 200 ± 10 ms;
/// - unshaped, it moves 1 Gbit/s or more over loopback;
/// - the kernel's `tc tbf` at 1 Mbit/s in a network namespace, beside it, as a reference.
/// Each prints an `ACCURACY` line with the measured number, the target and PASS/FAIL.
let benchmarks: @Sendable () -> Void = {
    let shaped = Benchmark.Configuration(metrics: [.wallClock], warmupIterations: 0, maxDuration: .seconds(60), maxIterations: 3)

    Benchmark("Proxy: 1,000,000 B at 1 Mbit/s (target 8.0 s ± 3 %)", configuration: shaped) { benchmark in
        let origin = OriginServer()
        let proxy = ShapingProxy(upstreamHost: "127.0.0.1", upstreamPort: try origin.start(), profile: .test(downlinkBitsPerSecond: 1_000_000))
        defer { proxy.stop(); origin.stop() }
        let fd = try LoopbackPeers.connect(port: try proxy.start())
        defer { close(fd) }
        benchmark.startMeasurement()
        let start = DispatchTime.now().uptimeNanoseconds
        let wire = try LoopbackPeers.get(fd, path: "/bytes/1000000")
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        benchmark.stopMeasurement()
        Report.line("1,000,000 B body (+\(wire - 1_000_000) B head) at 1 Mbit/s through the proxy", value: seconds, unit: "s",
                    target: "8.0 s ± 3 %", pass: abs(seconds - 8.0) <= 0.24)
    }

    Benchmark("Proxy: 1-byte round trip at 100 ms one-way (target 200 ± 10 ms)",
              configuration: .init(metrics: [.wallClock], warmupIterations: 1, maxDuration: .seconds(10), maxIterations: 20)) { benchmark in
        let echo = try EchoServer()
        let proxy = ShapingProxy(upstreamHost: "127.0.0.1", upstreamPort: echo.port, profile: .test(latency: 0.100))
        defer { proxy.stop(); echo.stop() }
        let fd = try LoopbackPeers.connect(port: try proxy.start())
        defer { close(fd) }
        benchmark.startMeasurement()
        let start = DispatchTime.now().uptimeNanoseconds
        try LoopbackPeers.sendAll(fd, [42])
        _ = try LoopbackPeers.read(fd, count: 1)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        benchmark.stopMeasurement()
        Report.line("1-byte echo through the proxy at 100 ms one-way", value: seconds * 1000, unit: "ms",
                    target: "200 ± 10 ms", pass: abs(seconds - 0.200) <= 0.010)
    }

    Benchmark("Proxy: 1 GB unshaped over loopback (target ≥ 1 Gbit/s)",
              configuration: .init(metrics: [.wallClock, .peakMemoryResident], warmupIterations: 0, maxDuration: .seconds(60), maxIterations: 3)) { benchmark in
        let origin = OriginServer()
        let proxy = ShapingProxy(upstreamHost: "127.0.0.1", upstreamPort: try origin.start())
        defer { proxy.stop(); origin.stop() }
        let fd = try LoopbackPeers.connect(port: try proxy.start())
        defer { close(fd) }
        let size = 1_000_000_000
        benchmark.startMeasurement()
        let start = DispatchTime.now().uptimeNanoseconds
        _ = try LoopbackPeers.get(fd, path: "/bytes/\(size)")
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        benchmark.stopMeasurement()
        let gbps = Double(size) * 8 / seconds / 1e9
        // Backpressure must hold the proxy's queue to its delay line's budget, far below the body.
        let queued = proxy.statistics().peakQueuedBytes
        Report.line("1 GB unshaped through the proxy (peak queued \(queued) B, limit 1 MiB)", value: gbps, unit: "Gbit/s",
                    target: "≥ 1 Gbit/s", pass: gbps >= 1 && queued < 1 << 20)
    }

    Benchmark("Reference: tc tbf 1 Mbit/s in a network namespace, 1,000,000 B",
              configuration: .init(metrics: [.wallClock], warmupIterations: 0, maxDuration: .seconds(60), maxIterations: 2,
                                   setup: {
                                       if let reason = TokenBucketReference.unavailableReason() {
                                           print("SKIP tc tbf reference: \(reason)")
                                           return
                                       }
                                       do {
                                           try TokenBucketReference.setUp(rate: "1mbit")
                                       } catch {
                                           print("SKIP tc tbf reference: \(error)")
                                           TokenBucketReference.tearDown()
                                       }
                                   },
                                   teardown: { TokenBucketReference.tearDown() })) { benchmark in
        guard access("/var/run/netns/\(TokenBucketReference.namespaces.1)", F_OK) == 0 else { return }
        benchmark.startMeasurement()
        let seconds = try TokenBucketReference.transfer(bytes: 1_000_000)
        benchmark.stopMeasurement()
        Report.line("1,000,000 B through tc tbf rate 1mbit (veth between two netns)", value: seconds, unit: "s",
                    target: "reference for the proxy's 8.0 s", pass: nil)
    }
}

/// The benchmarks' one-line results.
enum Report {
    static func line(_ what: String, value: Double, unit: String, target: String, pass: Bool?) {
        let verdict = pass.map { $0 ? "PASS" : "FAIL" } ?? "REFERENCE"
        print("ACCURACY \(what): \(String(format: "%.3f", value)) \(unit) (target \(target)) \(verdict)")
    }
}
