import XCTest
@testable import FrugalHarness
import FrugalCore

/// The scheduler's machine-wide gate, with a test double of the runner: each plan's steps are
/// carried out through ``RunPlan/performSteps(shouldStop:perform:)`` as ``ScenarioRunner`` does,
/// each taking real time (a wait its seconds, any other step `stepSeconds`), and every step's
/// interval is logged. Real time because the gate's settle is on the wall clock; the steps are
/// tens of ms, and the assertions are about order (which intervals overlap), not durations.
final class ResourceSchedulerGateTests: XCTestCase {
    struct Interval: Sendable {
        var workload: String
        var index: Int
        var step: ScenarioStep
        var start: Date
        var end: Date
        var demand: RunDemand
        func overlaps(_ other: Interval) -> Bool { start < other.end && other.start < end }
        func overlaps(_ run: (start: Date, end: Date)) -> Bool { start < run.end && run.start < end }
    }

    // @unchecked: every field is read and written holding `lock`.
    final class StepLog: @unchecked Sendable {
        let lock = NSLock()
        private var entries: [Interval] = []
        private var runs: [String: (start: Date, end: Date)] = [:]
        func add(_ interval: Interval) { lock.withLock { entries.append(interval) } }
        func run(_ name: String, start: Date, end: Date) { lock.withLock { runs[name] = (start, end) } }
        var intervals: [Interval] { lock.withLock { entries } }
        var runIntervals: [String: (start: Date, end: Date)] { lock.withLock { runs } }
    }

    struct StepFailed: Error {}

    /// The double: `throwing` names a workload whose step of that index throws after it ran.
    static func double(_ log: StepLog, interruption: SuiteInterruption, stepSeconds: Double = 0.03,
                       throwing: (workload: String, index: Int)? = nil) -> @Sendable (RunPlan) throws -> RunRecord {
        return { plan in
            let began = Date()
            let start = DispatchTime.now().uptimeNanoseconds
            defer { log.run(plan.workloadName, start: began, end: Date()) }
            plan.stepGate?.willStart()
            try plan.performSteps(shouldStop: { _, _ in interruption.signal != nil }) { index, step in
                let stepStart = Date()
                if step.kind == .wait { Thread.sleep(forTimeInterval: step.argument.seconds) } else { Thread.sleep(forTimeInterval: stepSeconds) }
                log.add(Interval(workload: plan.workloadName, index: index, step: step, start: stepStart, end: Date(), demand: plan.demand))
                if let throwing, throwing.workload == plan.workloadName, throwing.index == index { throw StepFailed() }
            }
            return RunRecord(workload: plan.workloadName, scenario: plan.scenario.name, repetition: 1, startTime: start,
                             endTime: DispatchTime.now().uptimeNanoseconds, pid: nil, steps: [], events: [], samples: [],
                             outcome: interruption.signal == nil ? .completed : .interrupted, outcomeDetail: nil, exitStatus: nil,
                             resourceUsage: nil)
        }
    }

    static let inputs = Scenario(name: "inputs", summary: "", steps: [.launch, .input(kind: "a"), .wait(seconds: 0.05), .input(kind: "b"),
                                                                    .wait(seconds: 0.05), .home, .wait(seconds: 0.05), .foreground, .terminate])

    static func plan(_ name: String, _ demand: RunDemand, _ scenario: Scenario = inputs) -> RunPlan {
        var plan = RunPlan(target: .builtIn(name: name), scenario: scenario)
        plan.demand = demand
        return plan
    }

    /// What the gate serialises: every launch, and every judged step of a run that is not light.
    static func gated(_ interval: Interval) -> Bool {
        interval.index == 0 || (!interval.demand.isLight && interval.step.isJudgedOnTime)
    }

    /// Runs `plans` on a thread, failing the test rather than hanging if the scheduler deadlocks.
    func schedule(_ scheduler: ResourceScheduler, _ plans: [RunPlan], timeout: Double = 30) -> Result<[RunRecord], Error>? {
        let box = ResultBox()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            box.set(Result { try scheduler.run(plans) })
            done.signal()
        }
        guard done.wait(timeout: .now() + timeout) == .success else {
            XCTFail("the scheduler did not finish within \(timeout) s: a gate was never released")
            return nil
        }
        return box.get()
    }

    // @unchecked: written once before the semaphore is signalled, read after it.
    final class ResultBox: @unchecked Sendable {
        private var value: Result<[RunRecord], Error>?
        func set(_ result: Result<[RunRecord], Error>) { value = result }
        func get() -> Result<[RunRecord], Error>? { value }
    }

    func testTwoGatedRunsNeverOverlapInTheirJudgedStepsButShareTheMachineBetweenThem() throws {
        let log = StepLog()
        let interruption = SuiteInterruption()
        let scheduler = ResourceScheduler(interruption: interruption, gatedSlots: 4, launchSettle: 0.02,
                                          runPlan: Self.double(log, interruption: interruption))
        let plans = (0..<3).map { Self.plan("g\($0)", .gated("test")) }
        let records = try XCTUnwrap(schedule(scheduler, plans)).get()
        XCTAssertEqual(records.count, 3)
        let judged = log.intervals.filter(Self.gated)
        XCTAssertEqual(judged.count, 3 * 5, "launch, two inputs, foreground and terminate of each run (home is not timed)")
        for (offset, one) in judged.enumerated() {
            for other in judged[(offset + 1)...] where other.workload != one.workload {
                XCTAssertFalse(one.overlaps(other), "\(one.workload) \(one.step.name) overlapped \(other.workload) \(other.step.name)")
            }
        }
        // The runs themselves overlap: a gated run sleeps beside the others between its steps
        // (an exclusive run would have had the machine from start to end).
        let runs = log.runIntervals.values.sorted { $0.start < $1.start }
        XCTAssertEqual(runs.count, 3)
        XCTAssertLessThan(runs[1].start, runs[0].end, "the second gated run waited for the first to end")
        // And a wait of one run does overlap a judged step of another: what the gate allows.
        let waits = log.intervals.filter { $0.step.kind == .wait }
        XCTAssertTrue(waits.contains { wait in judged.contains { $0.workload != wait.workload && $0.overlaps(wait) } },
                      "no run's wait overlapped another's judged step")
    }

    func testLightRunsSleepBesideJudgedStepsAndExclusiveRunsShareNothingButLightOnes() throws {
        let log = StepLog()
        let interruption = SuiteInterruption()
        let scheduler = ResourceScheduler(interruption: interruption, lightSlots: 4, gatedSlots: 4, launchSettle: 0.02,
                                          runPlan: Self.double(log, interruption: interruption))
        let long = Scenario(name: "long", summary: "", steps: [.launch, .wait(seconds: 3), .input(kind: "x"), .terminate])
        let plans = [Self.plan("light", .light, long), Self.plan("exclusive", .exclusive("test")),
                     Self.plan("g1", .gated("test")), Self.plan("g2", .gated("test"))]
        let records = try XCTUnwrap(schedule(scheduler, plans)).get()
        XCTAssertEqual(records.count, 4)
        let intervals = log.intervals
        let runs = log.runIntervals
        let exclusive = try XCTUnwrap(runs["exclusive"])
        // No gated run shares the machine with the exclusive one, nor does any launch.
        for gated in ["g1", "g2"] {
            let run = try XCTUnwrap(runs[gated])
            XCTAssertFalse(run.start < exclusive.end && exclusive.start < run.end, "\(gated) ran beside the exclusive run")
        }
        for launch in intervals where launch.index == 0 && launch.workload != "exclusive" {
            XCTAssertFalse(launch.overlaps(exclusive), "\(launch.workload) launched beside the exclusive run")
        }
        // The light run's long wait sleeps beside the exclusive run and the gated runs' judged steps.
        let lightWait = try XCTUnwrap(intervals.first { $0.workload == "light" && $0.index == 1 })
        XCTAssertTrue(lightWait.overlaps(exclusive), "the light run's wait did not overlap the exclusive run")
        XCTAssertTrue(intervals.contains { $0.workload.hasPrefix("g") && $0.index > 0 && $0.step.isJudgedOnTime && $0.overlaps(lightWait) },
                      "no gated step ran beside the light run's wait")
        // Launches never overlap any judged step, light or not.
        let judged = intervals.filter(Self.gated)
        for launch in intervals where launch.index == 0 {
            for other in judged where other.workload != launch.workload {
                XCTAssertFalse(launch.overlaps(other), "\(launch.workload)'s launch overlapped \(other.workload) \(other.step.name)")
            }
        }
    }

    /// A gated run with a closing idle lets an exclusive run start there, and its terminate after
    /// that idle waits only for the gate, not for the exclusive run to end.
    func testAnExclusiveRunStartsAtAGatedRunsClosingIdle() throws {
        // The one bound here tight enough for a neighbour to break (50 ms): it holds the machine
        // it shares with the other test lane (XCTestCase+Machine.swift). The other tests read
        // order, or a bound of seconds on a wait of a fraction of one.
        holdTheMachine()
        let log = StepLog()
        let interruption = SuiteInterruption()
        let scheduler = ResourceScheduler(interruption: interruption, gatedSlots: 4, launchSettle: 0.02,
                                          runPlan: Self.double(log, interruption: interruption))
        let tail = Scenario(name: "tail", summary: "", steps: [.launch, .input(kind: "a"), .wait(seconds: 0.1), .wait(seconds: 2), .terminate])
        let busy = Scenario(name: "busy", summary: "", steps: [.launch, .wait(seconds: 3), .terminate])
        let plans = [Self.plan("exclusive", .exclusive("test"), busy), Self.plan("gated", .gated("test"), tail)]
        let records = try XCTUnwrap(schedule(scheduler, plans)).get()
        XCTAssertEqual(records.count, 2)
        let intervals = log.intervals
        let runs = log.runIntervals
        let exclusive = try XCTUnwrap(runs["exclusive"]), gated = try XCTUnwrap(runs["gated"])
        let idle = try XCTUnwrap(intervals.first { $0.workload == "gated" && $0.index == 3 })
        let input = try XCTUnwrap(intervals.first { $0.workload == "gated" && $0.index == 1 })
        XCTAssertLessThan(gated.start, exclusive.start, "gated runs go before exclusive ones")
        XCTAssertGreaterThanOrEqual(exclusive.start, input.end, "the exclusive run started beside the gated run's input")
        XCTAssertGreaterThanOrEqual(exclusive.start.addingTimeInterval(0.05), idle.start, "the exclusive run waited past the closing idle's start: \(exclusive.start.timeIntervalSince(idle.start)) s")
        XCTAssertLessThan(exclusive.start, gated.end, "the exclusive run waited for the gated run to end")
        XCTAssertLessThan(gated.end, exclusive.end, "the gated run's terminate waited for the exclusive run to end")
    }

    func testTheGateIsReleasedWhenAStepThrows() throws {
        let log = StepLog()
        let interruption = SuiteInterruption()
        let scheduler = ResourceScheduler(interruption: interruption, gatedSlots: 4, launchSettle: 0.02,
                                          runPlan: Self.double(log, interruption: interruption, throwing: ("g0", 1)))
        let plans = (0..<3).map { Self.plan("g\($0)", .gated("test")) }
        // The harness failure stops new runs; those going on finish their judged steps (the
        // gate was given back), and the suite ends instead of waiting forever.
        let result = try XCTUnwrap(schedule(scheduler, plans))
        guard case .failure(let failure as SuiteFailure) = result else { return XCTFail("expected a SuiteFailure, got \(result)") }
        XCTAssertTrue(failure.underlying is StepFailed)
        let others = log.intervals.filter { $0.workload != "g0" }
        for run in Set(others.map(\.workload)) {
            XCTAssertTrue(others.contains { $0.workload == run && $0.step == .terminate }, "\(run) never got the gate back for its terminate")
        }
    }

    func testAnInterruptedSuiteStopsWaitingForTheGate() throws {
        let log = StepLog()
        let interruption = SuiteInterruption()
        // Each non-wait step takes 0.4 s: while one run holds the gate the other waits for it.
        let scheduler = ResourceScheduler(interruption: interruption, gatedSlots: 4, launchSettle: 0.02,
                                          runPlan: Self.double(log, interruption: interruption, stepSeconds: 0.4))
        let plans = (0..<2).map { Self.plan("g\($0)", .gated("test")) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) { interruption.interrupt(signal: SIGINT) }
        let started = Date()
        let records = try XCTUnwrap(schedule(scheduler, plans)).get()
        // Uninterrupted the two runs' 12 judged steps take about 5 s one after another; the
        // interruption ends them at the step under way (0.4 s) plus a look at the signal (0.2 s).
        XCTAssertLessThan(Date().timeIntervalSince(started), 3, "the suite went on after the interruption")
        XCTAssertTrue(records.allSatisfy { $0.outcome == .interrupted })
        let afterwards = log.intervals.filter { $0.start.timeIntervalSince(started) > 1.5 }
        XCTAssertTrue(afterwards.isEmpty, "steps started after the interruption: \(afterwards.map { "\($0.workload) \($0.step.name)" })")
    }

    /// The real runner calls the gate around every step, in order, each once.
    func testScenarioRunnerCallsTheGateAroundEveryStep() throws {
        let host = try XCTUnwrap(WorkloadHostLocator.locate())
        let recorder = RecordingGate()
        var plan = RunPlan(target: .builtIn(name: "idle"), scenario: Scenario(name: "s", summary: "", steps: [.launch, .input(kind: "tap"), .wait(seconds: 0.2), .terminate]))
        plan.stepGate = recorder
        let record = try ScenarioRunner(options: HarnessOptions(workloadHost: host)).run(plan)
        XCTAssertEqual(record.outcome, .completed)
        XCTAssertEqual(recorder.calls, ["will 0", "did 0", "will 1", "did 1", "will 2", "did 2", "will 3", "did 3"])
    }

    // @unchecked: `log` is read and written holding `lock`.
    final class RecordingGate: StepGate, @unchecked Sendable {
        let lock = NSLock()
        private var log: [String] = []
        var calls: [String] { lock.withLock { log } }
        func willPerform(_ step: ScenarioStep, index: Int) { lock.withLock { log.append("will \(index)") } }
        func didPerform(_ step: ScenarioStep, index: Int) { lock.withLock { log.append("did \(index)") } }
    }
}
