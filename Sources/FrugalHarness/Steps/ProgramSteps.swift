import Foundation
import FrugalCore
import FrugalProbe

/// A black-box program's steps: the same scenario vocabulary as an app's, carried out with what
/// any Linux program understands. The harness is the system: it freezes and thaws the run's
/// cgroup for `home`/`foreground` (SIGSTOP/SIGCONT to every process without one), sends SIGTERM
/// then SIGKILL for `terminate`, and a configured signal for `memoryWarning` and `input` (frugal.yml's
/// `memoryWarningSignal`, `inputSignal`). Steps that need an event loop the harness can reach
/// (`interrupt`, `notify`, and `input` without a signal) are recorded as not applicable. A kind's
/// `runForProgram` (FrugalCore) reaches these through `SessionStepHarness`.
enum ProgramSteps {
    /// A program's launch: it was started with the session; the step marks it active.
    static func launch(_ session: RunSession, index: Int, start: UInt64) {
        session.systemEvents.append(WorkloadEvent(time: session.process.spawnTime, body: .stateChanged(StateChange(from: .notRunning, to: .active))))
        session.record(.launch, index: index, start: start)
    }

    /// The background: the program is told nothing (no signal means "background" to any Linux
    /// program), runs for the background grace, then the whole run is suspended for real.
    static func home(_ session: RunSession, index: Int, start: UInt64) {
        session.systemEvents.append(WorkloadEvent(time: start, body: .stateChanged(StateChange(from: .active, to: .background))))
        LifecycleSteps.suspendAfterBackgroundGrace(session, from: start, index: index, start: start, subject: "program",
                                                   failure: "the program could not be suspended", suspend: { suspend(session) })
    }

    static func foreground(_ session: RunSession, index: Int, start: UInt64) {
        let resumed = session.suspension.isSuspended ? session.endSuspension(endedBy: "foreground", continueProcess: true) : start
        session.systemEvents.append(WorkloadEvent(time: resumed, body: .stateChanged(StateChange(from: .background, to: .active))))
        session.record(.foreground, index: index, start: resumed)
    }

    /// SIGTERM to every process of the run; SIGKILL to all after the terminate watchdog.
    static func terminate(_ session: RunSession, index: Int, start: UInt64) {
        if session.suspension.isSuspended { session.endSuspension(endedBy: "terminate", continueProcess: true) }
        session.ending.requestTerminate()
        session.outsideWatch.current?.expectResponse(until: start + RunSession.nanoseconds(session.options.terminateWatchdog))
        session.signalEveryProcess(SIGTERM)
        var problem: String?
        let deadline = start + RunSession.nanoseconds(session.options.terminateWatchdog)
        if session.process.waitForExit(until: deadline) == nil {
            problem = "terminate watchdog: still running \(DisplayFormat.number(session.options.terminateWatchdog)) s after SIGTERM"
            session.kill(outcome: .killedWatchdog, detail: problem!)
        } else {
            waitForOtherProcesses(session, until: deadline)
        }
        session.record(.terminate, index: index, start: start, problem: problem)
        session.ending.stop()
    }

    /// The system's kill: SIGKILL to every process of the run, no warning.
    static func kill(_ session: RunSession, index: Int, start: UInt64) {
        let from: AppState = session.suspension.isSuspended ? .suspended : .background
        LifecycleSteps.systemKill(session, from: from, subject: "program", index: index, start: start) {
            session.killEveryProcess()
        }
    }

    /// The same command again, in the same sandbox and cgroup.
    static func relaunch(_ session: RunSession, index: Int, start: UInt64) {
        if !session.process.hasExited {
            if session.suspension.isSuspended { session.endSuspension(endedBy: "relaunch", continueProcess: false) }
            session.killEveryProcess()
        }
        guard LifecycleSteps.relaunchProcess(session, index: index, start: start) else { return }
        session.systemEvents.append(WorkloadEvent(time: session.process.spawnTime, body: .stateChanged(StateChange(from: .notRunning, to: .active))))
        session.record(.relaunch, index: index, start: session.process.spawnTime)
    }

    /// The configured signal (`HarnessOptions.programMemoryWarningSignal`), with the memory
    /// samples around it; not applicable when none is configured.
    static func memoryWarning(_ session: RunSession, _ level: MemoryWarningLevel, index: Int, start: UInt64) {
        guard session.programMemoryWarningSignal != nil else {
            session.record(.memoryWarning(level: level), index: index, start: start,
                           problem: "not applicable: no memory-warning signal is configured for this program (frugal.yml memoryWarningSignal, --memory-warning-signal)")
            return
        }
        session.sequence += 1
        session.outsideWatch.current?.expectResponse(until: start + RunSession.nanoseconds(1))
        let (_, problem) = MemorySteps.deliverWarning(session, level, origin: "scenario", sequence: session.sequence)
        session.record(.memoryWarning(level: level), index: index, start: start, problem: problem)
    }

    /// The configured input signal (`RunPlan.programInputSignal`) to the spawned process, as the user's
    /// input: the program is expected to answer, so a blocked main thread in the next second is a hang.
    /// Not applicable when none is configured.
    static func input(_ session: RunSession, _ kind: String, index: Int, start: UInt64) {
        guard let signal = session.plan.programInputSignal else {
            session.record(.input(kind: kind), index: index, start: start,
                           problem: "not applicable: no input signal is configured for this program (frugal.yml inputSignal); it has no FrugalKit event loop for the harness to deliver input(\(kind)) to")
            return
        }
        session.outsideWatch.current?.expectResponse(until: start + RunSession.nanoseconds(1))
        var problem: String?
        do {
            try SystemCall.retrying("kill", subject: "\(session.process.pid)") { Glibc.kill(session.process.pid, signal) }
        } catch {
            problem = "could not send \(ProgramSignal.name(signal)) to pid \(session.process.pid): \(error)"
        }
        session.record(.input(kind: kind), index: index, start: start, problem: problem)
    }

    /// Ends a program whose scenario is over: the default scenario (`launch` alone) lets it run to
    /// its end within the command timeout; any other gets SIGTERM and the terminate watchdog.
    static func endAtScenarioEnd(_ session: RunSession) {
        if session.plan.scenario.steps == [.launch] {
            if session.process.waitForExit(until: session.process.spawnTime + RunSession.nanoseconds(session.options.commandTimeout)) == nil {
                // A program that runs until it is stopped (a server, a watcher) has no idle time in
                // this scenario, so its polling and listeners went unjudged: say which scenario does.
                session.kill(outcome: .timedOut, detail: "still running after \(DisplayFormat.number(session.options.commandTimeout)) s, the command timeout; a program that runs until it is stopped is judged under a scenario with idle time: --scenario program-lifecycle")
            }
            return
        }
        session.signalEveryProcess(SIGTERM)
        let deadline = MonotonicClock.now() + RunSession.nanoseconds(session.options.terminateWatchdog)
        if session.process.waitForExit(until: deadline) == nil {
            session.kill(outcome: .timedOut, detail: "still running \(DisplayFormat.number(session.options.terminateWatchdog)) s after SIGTERM at the end of the scenario")
        } else {
            session.ending.requestTerminate()
            waitForOtherProcesses(session, until: deadline)
        }
    }

    /// After SIGTERM to every process: the others get the same watchdog to end as the main one
    /// (a wrapper often dies first); what is left when it runs out is a straggler.
    static func waitForOtherProcesses(_ session: RunSession, until deadline: UInt64) {
        while !session.otherProcesses().isEmpty && MonotonicClock.now() < deadline {
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    /// A program's own exit: status 0, or death by the SIGTERM the scenario sent, is a normal end;
    /// so is status 143 (128 + SIGTERM) after it, how a program that catches SIGTERM says it ended
    /// on it: the JVM after its shutdown hooks, shells and their traps. A JVM sleeping in `main`
    /// was once reported as crashed at the end of `program-lifecycle`.
    static func classifyExit(_ session: RunSession, _ status: ExitStatus) -> (RunOutcome, String?) {
        if session.ending.terminateRequested && (status.code == 0 || status.code == 128 + SIGTERM || status.signal == SIGTERM) {
            return (.completed, nil)
        }
        if status.code == 0 {
            let early = session.plan.scenario.steps != [.launch] && !session.ending.terminateRequested
            return (.completed, early ? "exited with status 0 before the scenario ended" : nil)
        }
        return ScenarioRunner.classify(status, terminated: true)
    }

    /// Freezes the run's cgroup (every process, invisibly to them), or stops each process with
    /// SIGSTOP, and samples it from outside once it is stopped.
    static func suspend(_ session: RunSession) {
        session.hangWatcher.setPaused(true)
        session.outsideWatch.current?.setPaused(true)
        var sample: ProcessSample?
        if let cgroup = session.container.cgroup, cgroup.freeze() {
            session.suspension.froze()
            sample = session.sampler.sampleNow()
        } else {
            if let cgroup = session.container.cgroup { cgroup.thaw() }
            session.signalEveryProcess(SIGSTOP)
            sample = session.sampler.stoppedSample(timeout: 2)
            if sample == nil { session.signalEveryProcess(SIGCONT) }
        }
        guard let sample else {
            session.suspension.thawed()
            session.hangWatcher.setPaused(false)
            session.outsideWatch.current?.setPaused(false)
            return
        }
        LifecycleSteps.recordSuspension(session, sample)
    }

    /// Continues every process of a suspended program: thaws the freezer, or SIGCONT.
    static func resume(_ session: RunSession) {
        if session.suspension.isFrozen {
            session.container.cgroup?.thaw()
            session.suspension.thawed()
        } else {
            session.signalEveryProcess(SIGCONT)
        }
        session.outsideWatch.current?.setPaused(false)
        // Back in the foreground the user is waiting: a blocked main thread now is a hang.
        session.outsideWatch.current?.expectResponse(until: MonotonicClock.now() + RunSession.nanoseconds(1))
    }
}
