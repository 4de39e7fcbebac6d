import Foundation
import FrugalCore

/// Runs plans by what they use rather than by count. Light runs (``RunDemand/light``) sleep
/// most of the time: up to `lightSlots` run side by side. An exclusive run (CPU-bound, judged
/// on timing, or under memory pressure) never shares the machine with another exclusive run or
/// with a launch: while it runs no run starts, and it starts only once the last launch is
/// `launchSpacing` behind. The light runs already going keep sleeping beside it. An exclusive run
/// that ends in a long idle (``RunDemand/exclusiveUntilIdle(_:)``) lets the machine go when that
/// idle starts: from there it sleeps beside the others as a light run does.
///
/// Records come back in plan order; one workload's failure is a finding, and a harness failure
/// stops new runs (``SuiteFailure``), as with ``SuiteRunner``.
public final class ResourceScheduler {
    let runner: ScenarioRunner
    /// Light runs at once: each is mostly asleep (its `/proc` sampling costs the harness about
    /// 2 ms a second).
    public let lightSlots: Int
    /// Seconds after a light run starts before anything else starts: a launch (exec, PAPI
    /// set-up, the first handlers) takes well under this of CPU, so no two launches overlap
    /// and no exclusive run starts beside one.
    public let launchSpacing: Double

    public init(options: HarnessOptions, lightSlots: Int = 10, launchSpacing: Double = 0.5) {
        runner = ScenarioRunner(options: options)
        self.lightSlots = max(1, lightSlots)
        self.launchSpacing = max(0, launchSpacing)
    }

    /// Light and exclusive plans, each longest first (ties in plan order): long light runs
    /// start early and sleep through the exclusive ones. Pure, for tests.
    static func queues(_ plans: [RunPlan]) -> (light: [Int], exclusive: [Int]) {
        let order = plans.indices.sorted { (-plans[$0].scenario.waitSeconds, $0) < (-plans[$1].scenario.waitSeconds, $1) }
        return (order.filter { plans[$0].demand.isLight }, order.filter { !plans[$0].demand.isLight })
    }

    // @unchecked: every field but `condition` is read and written only holding `condition`'s
    // lock (an NSCondition, because the scheduler waits on it).
    private final class State: @unchecked Sendable {
        let condition = NSCondition()
        var results: [Result<RunRecord, Error>?]
        var runningLight = 0
        /// The plan holding the machine, if one does.
        var exclusiveHolder: Int?
        var runningExclusive: Bool { exclusiveHolder != nil }
        var failed = false
        var lastStart = Date.distantPast
        init(count: Int) { results = Array(repeating: nil, count: count) }
    }

    /// Runs every plan; throws ``SuiteFailure`` when the harness itself fails, after the runs
    /// already going have ended.
    public func run(_ plans: [RunPlan], progress: @escaping @Sendable (SuiteRunner.Progress) -> Void = { _ in }) throws -> [RunRecord] {
        let state = State(count: plans.count)
        var (light, exclusive) = Self.queues(plans)
        let group = DispatchGroup()
        state.condition.lock()
        // An interrupted suite starts no new run; the runs going on end as `interrupted` and wake this loop.
        while (!light.isEmpty || !exclusive.isEmpty) && !state.failed && runner.options.interruption.signal == nil {
            let settled = state.lastStart.addingTimeInterval(launchSpacing)
            if state.runningExclusive || Date() < settled {
                // Nothing starts beside an exclusive run or a launch.
                if state.runningExclusive { state.condition.wait() } else { _ = state.condition.wait(until: settled) }
                continue
            }
            let index: Int
            if !light.isEmpty && state.runningLight < lightSlots {
                index = light.removeFirst()
                state.runningLight += 1
            } else if !exclusive.isEmpty {
                index = exclusive.removeFirst()
                state.exclusiveHolder = index
            } else {
                state.condition.wait()
                continue
            }
            state.lastStart = Date()
            var planned = plans[index]
            if case .exclusiveUntilIdle = planned.demand, let idle = RunDemand.idleTail(of: planned.scenario) {
                planned.beforeStep = { step in
                    guard step == idle else { return }
                    state.condition.lock()
                    if state.exclusiveHolder == index { state.exclusiveHolder = nil }
                    state.condition.broadcast()
                    state.condition.unlock()
                }
            }
            let plan = planned
            progress(.starting(index: index + 1, of: plans.count, plan: plan))
            group.enter()
            let worker = Thread { [runner] in
                defer { group.leave() }
                let result = Result { try runner.run(plan) }
                state.condition.lock()
                state.results[index] = result
                if plan.demand.isLight { state.runningLight -= 1 } else if state.exclusiveHolder == index { state.exclusiveHolder = nil }
                switch result {
                case .success(let record): progress(.finished(index: index + 1, of: plans.count, record: record))
                case .failure: state.failed = true
                }
                state.condition.broadcast()
                state.condition.unlock()
            }
            worker.name = "frugal-scheduled-run"
            worker.start()
        }
        state.condition.unlock()
        group.wait()
        let records = state.results.compactMap { try? $0?.get() }
        for case .failure(let error)? in state.results {
            throw SuiteFailure(underlying: error, completed: records)
        }
        return records
    }
}
