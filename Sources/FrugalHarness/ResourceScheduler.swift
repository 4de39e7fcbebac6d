import Foundation
import FrugalCore

/// Runs plans by what they use rather than by count: light runs (``RunDemand/light``) side by
/// side, up to `lightSlots` at once and their launches spaced apart; an exclusive run alone,
/// once the runs before it have ended. Records come back in plan order; one workload's failure
/// is a finding, a harness failure stops new runs (``SuiteFailure``), as with ``SuiteRunner``.
///
/// Most built-in workloads sleep through radio tails and idle phases, so the suite's length is
/// near its exclusive runs plus its longest light one, not its scenario time over the cores.
public final class ResourceScheduler {
    let runner: ScenarioRunner
    /// Light runs at once. Each is mostly asleep; what they share is the launch burst, which
    /// `launchSpacing` keeps apart.
    public let lightSlots: Int
    /// Seconds between two light runs' starts: a launch (exec, PAPI set-up, first handlers)
    /// takes a fraction of a second of CPU, so two never launch on top of each other.
    public let launchSpacing: Double

    public init(options: HarnessOptions, lightSlots: Int = 8, launchSpacing: Double = 1.0) {
        runner = ScenarioRunner(options: options)
        self.lightSlots = max(1, lightSlots)
        self.launchSpacing = max(0, launchSpacing)
    }

    /// The order runs start in: exclusive runs first, longest first, then light runs longest
    /// first (the last light run to start should be a short one). Pure, for tests.
    static func startOrder(_ plans: [RunPlan]) -> [Int] {
        plans.indices.sorted { a, b in
            let ka = (plans[a].demand.isLight ? 1 : 0, -plans[a].scenario.waitSeconds, a)
            let kb = (plans[b].demand.isLight ? 1 : 0, -plans[b].scenario.waitSeconds, b)
            return ka < kb
        }
    }

    private final class State: @unchecked Sendable {
        let condition = NSCondition()
        var results: [Result<RunRecord, Error>?]
        var next = 0
        var runningLight = 0
        var runningExclusive = false
        var failed = false
        var lastLightStart = Date.distantPast
        init(count: Int) { results = Array(repeating: nil, count: count) }
    }

    /// Runs every plan; throws ``SuiteFailure`` when the harness itself fails, after the runs
    /// already going have ended.
    public func run(_ plans: [RunPlan], progress: @escaping (SuiteRunner.Progress) -> Void = { _ in }) throws -> [RunRecord] {
        let state = State(count: plans.count)
        let order = Self.startOrder(plans)
        let group = DispatchGroup()
        state.condition.lock()
        while state.next < order.count && !state.failed {
            let index = order[state.next]
            let plan = plans[index]
            if plan.demand.isLight {
                // Wait for a slot, no exclusive run, and the spacing since the last launch.
                while !state.failed && (state.runningExclusive || state.runningLight >= lightSlots) { state.condition.wait() }
                let ready = state.lastLightStart.addingTimeInterval(launchSpacing)
                while !state.failed && Date() < ready { _ = state.condition.wait(until: ready) }
                if state.failed { break }
                state.runningLight += 1
                state.lastLightStart = Date()
            } else {
                while !state.failed && (state.runningExclusive || state.runningLight > 0) { state.condition.wait() }
                if state.failed { break }
                state.runningExclusive = true
            }
            state.next += 1
            progress(.starting(index: index + 1, of: plans.count, plan: plan))
            group.enter()
            let worker = Thread { [runner] in
                defer { group.leave() }
                let result = Result { try runner.run(plan) }
                state.condition.lock()
                state.results[index] = result
                if plan.demand.isLight { state.runningLight -= 1 } else { state.runningExclusive = false }
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
