import Foundation
import Synchronization
import FrugalCore

/// Runs plans, one at a time or `jobs` side by side, and reports progress; one workload's
/// failure is a finding and does not stop the others. Records come back in plan order.
public final class SuiteRunner {
    /// What the runner is doing, for progress lines on standard error.
    public enum Progress: Sendable {
        case starting(index: Int, of: Int, plan: RunPlan)
        case finished(index: Int, of: Int, record: RunRecord)
    }

    let runner: ScenarioRunner
    /// How many workloads run at once. More than one adds CPU contention (launch times and handler
    /// durations stretch); wakeup counts, which are per thread, are not affected by it.
    public let jobs: Int

    public init(options: HarnessOptions, jobs: Int = 1) {
        runner = ScenarioRunner(options: options)
        self.jobs = max(1, jobs)
    }

    /// The work shared by the workers, behind one lock.
    private struct Queue {
        var results: [Result<RunRecord, Error>?]
        /// Position in `order`, the next plan to start.
        var next = 0
        var failed = false
    }

    /// Runs every plan. Throws `SuiteFailure` only when the harness itself fails, after the plans
    /// already running have ended; it carries the records that finished.
    public func run(_ plans: [RunPlan], progress: @escaping @Sendable (Progress) -> Void = { _ in }) throws -> [RunRecord] {
        let queue = Mutex(Queue(results: Array(repeating: nil, count: plans.count)))
        // Longest scenarios first: with several jobs the suite ends when its last run does, so a
        // long run started last would leave the other jobs idle. Records keep the plans' order.
        let order = plans.indices.sorted { (-plans[$0].scenario.waitSeconds, $0) < (-plans[$1].scenario.waitSeconds, $1) }
        let group = DispatchGroup()
        for _ in 0..<min(jobs, plans.count) {
            group.enter()
            let worker = Thread { [runner] in
                defer { group.leave() }
                while true {
                    // An interrupted suite starts no new run; the runs going on end as `interrupted`.
                    let next = queue.withLock { queue -> Int? in
                        guard queue.next < plans.count, !queue.failed, runner.options.interruption.signal == nil else { return nil }
                        let index = order[queue.next]
                        queue.next += 1
                        progress(.starting(index: index + 1, of: plans.count, plan: plans[index]))
                        return index
                    }
                    guard let index = next else { return }
                    let result = Result { try runner.run(plans[index]) }
                    queue.withLock { queue in
                        queue.results[index] = result
                        switch result {
                        case .success(let record): progress(.finished(index: index + 1, of: plans.count, record: record))
                        case .failure: queue.failed = true
                        }
                    }
                }
            }
            worker.name = "frugal-suite-worker"
            worker.start()
        }
        group.wait()
        let results = queue.withLock { $0.results }
        let records = results.compactMap { try? $0?.get() }
        for case .failure(let error)? in results {
            throw SuiteFailure(underlying: error, completed: records)
        }
        return records
    }
}

/// A harness failure part-way through a suite, with the runs that did finish (so the report
/// can still be written: nothing lost).
public struct SuiteFailure: Error, CustomStringConvertible {
    public var underlying: Error
    public var completed: [RunRecord]
    public var description: String { "\(underlying)" }
}
