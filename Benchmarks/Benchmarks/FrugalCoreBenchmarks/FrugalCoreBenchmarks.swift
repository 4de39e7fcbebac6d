import Benchmark
import FrugalCore

/// The pure model's costs: scoring and building a run's report from its events.
let benchmarks: @Sendable () -> Void = {
    Benchmark("LogNormalScoring.score", configuration: .init(metrics: [.wallClock, .throughput], scalingFactor: .kilo)) { benchmark in
        for value in benchmark.scaledIterations {
            blackHole(LogNormalScoring.score(Double(value % 5000) + 1, p10: 400, median: 2000))
        }
    }

    Benchmark("ReportBuilder.runReport, 10,000 handler events", configuration: .init(metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident])) { benchmark in
        let record = SyntheticRun.record(handlers: 10_000)
        benchmark.startMeasurement()
        blackHole(ReportBuilder.runReport(record))
    }
}

/// A run with `handlers` main-thread handlers of 1–100 ms and a /proc sample per 10 handlers.
enum SyntheticRun {
    static func record(handlers count: Int) -> RunRecord {
        var events: [WorkloadEvent] = []
        var samples: [ProcessSample] = []
        var time: UInt64 = 1_000_000_000
        for index in 0..<count {
            let duration = UInt64(1 + index % 100) * 1_000_000
            events.append(WorkloadEvent(time: time + duration, body: .handler(HandlerRecord(name: "timer:\(index % 7)", start: time, end: time + duration))))
            if index % 10 == 0 {
                samples.append(ProcessSample(time: time, threads: [ThreadSample(tid: 1, name: "main", voluntaryContextSwitches: index, involuntaryContextSwitches: 0, onCPUNanoseconds: time / 2)]))
            }
            time += duration + 5_000_000
        }
        return RunRecord(workload: "synthetic", scenario: "synthetic", repetition: 1, startTime: 1_000_000_000, endTime: time,
                         pid: 1, steps: [], events: events, samples: samples, outcome: .completed, outcomeDetail: nil,
                         exitStatus: ExitStatus(code: 0), resourceUsage: nil)
    }
}
