import Foundation
import FrugalCore

/// Runs plans by what they use rather than by count. Light runs (``RunDemand/light``) sleep
/// most of the time: up to `lightSlots` run side by side. A machine-wide gate (``StepGate``)
/// serialises what is judged on time: every run's launch, and each judged step of a gated run
/// (``RunDemand/gated(_:)``: its launch, inputs, terminate, foreground). While one run
/// holds the gate, and for `launchSettle` after (the handlers an app runs right after a step),
/// no run starts and no other judged step begins. Gated runs sleep beside each other and beside
/// light runs between their steps, up to `gatedSlots` at once; they go before the exclusive
/// runs. An exclusive run (CPU-bound, or working between its steps, or under memory pressure)
/// never shares the machine with another exclusive run, a gated run or a launch: while it runs
/// no run starts (the light runs already going keep sleeping beside it), and it starts only once
/// no gated run is going. A run that ends in a long idle (``RunDemand/idleTail(of:)``: an
/// ``RunDemand/exclusiveUntilIdle(_:)`` or a gated one) lets the machine go when that idle
/// starts: from there it sleeps beside the others as a light run does, and its terminate takes
/// only the gate.
///
/// Records come back in plan order; one workload's failure is a finding, and a harness failure
/// stops new runs (``SuiteFailure``), as with ``SuiteRunner``.
public final class ResourceScheduler: Sendable {
    let runPlan: @Sendable (RunPlan) throws -> RunRecord
    let interruption: SuiteInterruption
    /// Light runs at once: each is mostly asleep (its `/proc` sampling costs the harness about
    /// 2 ms a second).
    public let lightSlots: Int
    /// Gated runs at once, besides the light ones: each waits for the gate before every judged
    /// step, so more of them only lengthen each one's waits (a step held at the gate stretches
    /// the wait before it). 8 ended the default suite 2 s sooner than 4 at load 10, and held
    /// edits long enough to change what coalescing apps did.
    public let gatedSlots: Int
    /// Seconds after a launch or another judged step has ended (the app acknowledged it) before
    /// anything else starts or another judged step begins: the handlers an app runs right after
    /// it (timers set up, a first screen) are over by then. Launches themselves take 20–60 ms here.
    public let launchSettle: Double
    /// Seconds after a black-box program starts before anything else starts: the harness does not
    /// see when such a program has finished starting, so it allows a launch's worst case.
    public let programLaunchSpacing: Double
    /// The gate shared with other processes (``MachineGate``), held whenever this suite holds its
    /// own gate or runs an exclusive run; nil: only this suite's runs are ordered.
    let machine: MachineGate?

    public convenience init(options: HarnessOptions, lightSlots: Int = 10, gatedSlots: Int = 4, launchSettle: Double = 0.1,
                            programLaunchSpacing: Double = 0.5) {
        let runner = ScenarioRunner(options: options)
        self.init(interruption: options.interruption, lightSlots: lightSlots, gatedSlots: gatedSlots, launchSettle: launchSettle,
                  programLaunchSpacing: programLaunchSpacing, machine: options.machineGate, runPlan: { try runner.run($0) })
    }

    /// A scheduler whose runs are carried out by `runPlan` (``ScenarioRunner/run(_:)``, or a
    /// test's double that calls ``RunPlan/performSteps(shouldStop:perform:)`` as the runner does).
    init(interruption: SuiteInterruption, lightSlots: Int = 10, gatedSlots: Int = 4, launchSettle: Double = 0.1,
         programLaunchSpacing: Double = 0.5, machine: MachineGate? = nil, runPlan: @escaping @Sendable (RunPlan) throws -> RunRecord) {
        self.runPlan = runPlan
        self.machine = machine
        self.interruption = interruption
        self.lightSlots = max(1, lightSlots)
        self.gatedSlots = max(1, gatedSlots)
        self.launchSettle = max(0, launchSettle)
        self.programLaunchSpacing = max(0, programLaunchSpacing)
    }

    /// Light, exclusive and gated plans, each longest first (ties in plan order): long light runs
    /// start early and sleep through the others. Pure, for tests.
    static func queues(_ plans: [RunPlan]) -> (light: [Int], exclusive: [Int], gated: [Int]) {
        let order = plans.indices.sorted { (-plans[$0].scenario.waitSeconds, $0) < (-plans[$1].scenario.waitSeconds, $1) }
        return (order.filter { plans[$0].demand.isLight }, order.filter { plans[$0].demand.isExclusive },
                order.filter { plans[$0].demand.isGated })
    }

    // @unchecked: every field but `condition` is read and written only holding `condition`'s
    // lock (an NSCondition, because the scheduler and the gates wait on it).
    final class State: @unchecked Sendable {
        let condition = NSCondition()
        var results: [Result<RunRecord, Error>?]
        var runningLight = 0
        var runningGated = 0
        /// Gated runs going and not yet in their closing idle: an exclusive run waits for none.
        var activeGated: Set<Int> = []
        /// The plan holding the machine from its start, if one does.
        var exclusiveHolder: Int?
        var runningExclusive: Bool { exclusiveHolder != nil }
        var failed = false
        /// The plan whose launch or judged step is under way, if one is: nothing starts beside it.
        var gateHolder: Int?
        /// When nothing may start before (the last judged step's end plus the settle time).
        var settled = Date.distantPast
        init(count: Int) { results = Array(repeating: nil, count: count) }

        /// Whether a run may start or a judged step begin now (holding the lock).
        var gateFree: Bool { gateHolder == nil && Date() >= settled }

        /// Waits (holding the lock) until something changes or the settle time has passed.
        func waitForChange() {
            if gateHolder == nil && Date() < settled { _ = condition.wait(until: settled) } else { condition.wait() }
        }

        /// Gives the gate back if `index` holds it (holding the lock).
        func release(_ index: Int, settle: Double) {
            guard gateHolder == index else { return }
            gateHolder = nil
            settled = max(settled, Date().addingTimeInterval(settle))
            condition.broadcast()
        }
    }

    /// One run's gate: step 0 (the launch) was taken for it when it started; a gated run's later
    /// judged steps, and an exclusive run's once it has let the machine go, wait for it.
    struct Gate: StepGate {
        let state: State
        let index: Int
        let demand: RunDemand
        let idle: Int?
        let settle: Double
        let interruption: SuiteInterruption
        /// The run's holds on the gate shared with other processes.
        let lease: MachineLease

        /// Before the run's processes start: this suite's gate was taken for its launch when the
        /// run started (not for a black-box program, whose start is spaced instead), and an
        /// exclusive run holds the machine from here; other processes sharing the machine gate
        /// are waited for outside the suite's lock.
        func willStart() {
            state.condition.lock()
            let launchHeld = state.gateHolder == index
            state.condition.unlock()
            if demand.isExclusive { lease.beginExclusive() }
            if launchHeld { lease.beginStep() }
        }

        func willPerform(_ step: ScenarioStep, index stepIndex: Int) {
            state.condition.lock()
            if stepIndex == idle {
                if state.exclusiveHolder == index { state.exclusiveHolder = nil }
                state.activeGated.remove(index)
                state.condition.broadcast()
                state.condition.unlock()
                lease.endExclusive()
                state.condition.lock()
            }
            guard stepIndex > 0, step.isJudgedOnTime, !demand.isLight, state.exclusiveHolder != index else {
                state.condition.unlock()
                return
            }
            let inTail = idle.map { stepIndex > $0 } ?? false
            // A gated run's step also waits out an exclusive run (one starts only once no gated
            // run is going, so this is rare); an exclusive run's closing steps, after it let the
            // machine go, wait only for the gate, as its neighbours' launches do.
            // Woken by every release; the interruption does not broadcast, so look every 0.2 s.
            while !state.gateFree || (demand.isGated && !inTail && state.exclusiveHolder != nil) {
                if interruption.signal != nil {
                    state.condition.unlock()
                    return
                }
                let now = Date()
                let limit = now.addingTimeInterval(0.2)
                _ = state.condition.wait(until: state.gateHolder == nil && now < state.settled ? min(limit, state.settled) : limit)
            }
            state.gateHolder = index
            state.condition.unlock()
            lease.beginStep()
        }

        func didPerform(_ step: ScenarioStep, index stepIndex: Int) {
            state.condition.lock()
            state.release(index, settle: settle)
            state.condition.unlock()
            lease.endStep(settle: settle)
        }
    }

    /// Runs every plan; throws ``SuiteFailure`` when the harness itself fails, after the runs
    /// already going have ended.
    public func run(_ plans: [RunPlan], progress: @escaping @Sendable (SuiteRunner.Progress) -> Void = { _ in }) throws -> [RunRecord] {
        let state = State(count: plans.count)
        var (light, exclusive, gated) = Self.queues(plans)
        let group = DispatchGroup()
        state.condition.lock()
        // An interrupted suite starts no new run; the runs going on end as `interrupted` and wake this loop.
        while (!light.isEmpty || !exclusive.isEmpty || !gated.isEmpty) && !state.failed && interruption.signal == nil {
            if state.runningExclusive || !state.gateFree {
                // Nothing starts beside an exclusive run, a launch or a judged step.
                state.waitForChange()
                continue
            }
            let index: Int
            if !light.isEmpty && state.runningLight < lightSlots {
                index = light.removeFirst()
                state.runningLight += 1
            } else if !gated.isEmpty && state.runningGated < gatedSlots {
                index = gated.removeFirst()
                state.runningGated += 1
                state.activeGated.insert(index)
            } else if !exclusive.isEmpty {
                // An exclusive run waits for the gated runs going to end or reach their closing
                // idle (their judged steps would share the machine with it).
                guard state.activeGated.isEmpty, gated.isEmpty else {
                    state.condition.wait()
                    continue
                }
                index = exclusive.removeFirst()
                state.exclusiveHolder = index
            } else {
                state.condition.wait()
                continue
            }
            var planned = plans[index]
            if case .command = planned.target {
                // A black-box program's start is not seen: nothing starts for a launch's worst case.
                state.settled = Date().addingTimeInterval(programLaunchSpacing)
            } else {
                state.gateHolder = index
            }
            let idle: Int? = switch planned.demand {
            case .exclusiveUntilIdle, .gated: RunDemand.idleTail(of: planned.scenario)
            case .light, .exclusive: nil
            }
            let lease = MachineLease(machine: machine, interruption: interruption)
            planned.stepGate = Gate(state: state, index: index, demand: planned.demand, idle: idle, settle: launchSettle,
                                    interruption: interruption, lease: lease)
            let plan = planned
            progress(.starting(index: index + 1, of: plans.count, plan: plan))
            group.enter()
            let settle = launchSettle
            let worker = Thread { [runPlan] in
                defer { group.leave() }
                let result = Result { try runPlan(plan) }
                // A run that threw or stopped inside its exclusive part gives the machine back.
                lease.end()
                state.condition.lock()
                state.results[index] = result
                if plan.demand.isLight { state.runningLight -= 1 } else if plan.demand.isGated { state.runningGated -= 1 }
                state.activeGated.remove(index)
                if state.exclusiveHolder == index { state.exclusiveHolder = nil }
                // A run that ended in its launch (a crash, the watchdog, a throw) gives the gate back too.
                state.release(index, settle: settle)
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
