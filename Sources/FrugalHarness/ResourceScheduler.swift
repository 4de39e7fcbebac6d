import Foundation
import FrugalCore

/// Runs plans by what they use rather than by count. Light runs (``RunDemand/light``) sleep
/// most of the time: up to `lightSlots` run side by side. A launch (every run's launch time is
/// judged) has the machine to itself: nothing starts until it has ended and `launchSettle` has
/// passed, the time the app's first handlers after it take. An exclusive run (CPU-bound, judged
/// on timing, or under memory pressure) never shares the machine with another exclusive run or
/// with a launch: while it runs no run starts. The light runs already going keep sleeping
/// beside it. An exclusive run
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
    /// Seconds after a launch has ended (the app acknowledged its first event) before anything
    /// else starts: the handlers an app runs right after launching (timers set up, a first
    /// screen) are over by then. Launches themselves take 20–60 ms here.
    public let launchSettle: Double
    /// Seconds after a black-box program starts before anything else starts: the harness does not
    /// see when such a program has finished starting, so it allows a launch's worst case.
    public let programLaunchSpacing: Double

    public init(options: HarnessOptions, lightSlots: Int = 10, launchSettle: Double = 0.1, programLaunchSpacing: Double = 0.5) {
        runner = ScenarioRunner(options: options)
        self.lightSlots = max(1, lightSlots)
        self.launchSettle = max(0, launchSettle)
        self.programLaunchSpacing = max(0, programLaunchSpacing)
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
        /// The plan whose launch is under way, if one is: nothing starts beside it.
        var launching: Int?
        /// When nothing may start before (the last launch's end plus the settle time).
        var settled = Date.distantPast
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
            if state.runningExclusive || state.launching != nil || Date() < state.settled {
                // Nothing starts beside an exclusive run or a launch.
                if state.runningExclusive || state.launching != nil { state.condition.wait() } else { _ = state.condition.wait(until: state.settled) }
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
            var planned = plans[index]
            let settle = launchSettle
            if case .command = planned.target {
                state.settled = Date().addingTimeInterval(programLaunchSpacing)
            } else {
                state.launching = index
            }
            let idle: Int? = if case .exclusiveUntilIdle = planned.demand { RunDemand.idleTail(of: planned.scenario) } else { nil }
            let callersHook = planned.beforeStep
            planned.beforeStep = { step in
                callersHook?(step)
                // Step 0 is the launch (ScenarioRunner requires it): step 1 begins once it has ended.
                guard step == 1 || step == idle else { return }
                state.condition.lock()
                if step == 1, state.launching == index {
                    state.launching = nil
                    state.settled = Date().addingTimeInterval(settle)
                }
                if step == idle, state.exclusiveHolder == index { state.exclusiveHolder = nil }
                state.condition.broadcast()
                state.condition.unlock()
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
                // A run that ended in its launch (a crash, the watchdog) ends the launch too.
                if state.launching == index {
                    state.launching = nil
                    state.settled = Date().addingTimeInterval(settle)
                }
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
