import Foundation
import FrugalCore
import FrugalProbe

/// A black-box program's steps: the same scenario vocabulary as an app's, carried out with what
/// any Linux program understands. The harness is the system: it freezes and thaws the run's
/// cgroup for `home`/`foreground` (SIGSTOP/SIGCONT to every process without one), sends SIGTERM
/// then SIGKILL for `terminate`, and a configured signal for `memoryWarning` and `input` (frugal.yml's
/// `memoryWarningSignal`, `inputSignal`). Steps that need an event loop the harness can reach
/// (`interrupt`, `notify`, and `input` without a signal) are recorded as not applicable. Each
/// kind's `StepPerformer` (`Steps/`) routes here for a program.
extension RunSession {
    /// A program's launch: it was started with the session; the step marks it active.
    func programLaunch(index: Int, start: UInt64) {
        systemEvents.append(WorkloadEvent(time: process.spawnTime, body: .stateChanged(StateChange(from: .notRunning, to: .active))))
        record(.launch, index: index, start: start)
    }

    /// The background: the program is told nothing (no signal means "background" to any Linux
    /// program), runs for the background grace, then the whole run is suspended for real.
    func programHome(index: Int, start: UInt64) {
        systemEvents.append(WorkloadEvent(time: start, body: .stateChanged(StateChange(from: .active, to: .background))))
        suspendAfterBackgroundGrace(from: start, index: index, start: start, subject: "program",
                                    failure: "the program could not be suspended", suspend: suspendProgram)
    }

    /// Freezes the run's cgroup (every process, invisibly to them), or stops each process with
    /// SIGSTOP, and samples it from outside once it is stopped.
    func suspendProgram() {
        hangWatcher.setPaused(true)
        outsideWatch.current?.setPaused(true)
        var sample: ProcessSample?
        if let containment, containment.freeze() {
            suspension.froze()
            sample = sampler.sampleNow()
        } else {
            if let containment { containment.thaw() }
            signalEveryProcess(SIGSTOP)
            sample = sampler.stoppedSample(timeout: 2)
            if sample == nil { signalEveryProcess(SIGCONT) }
        }
        guard let sample else {
            suspension.thawed()
            hangWatcher.setPaused(false)
            outsideWatch.current?.setPaused(false)
            return
        }
        recordSuspension(sample)
    }

    /// Continues every process of a suspended program: thaws the freezer, or SIGCONT.
    func resumeProgram() {
        if suspendedByFreezer {
            containment?.thaw()
            suspension.thawed()
        } else {
            signalEveryProcess(SIGCONT)
        }
        outsideWatch.current?.setPaused(false)
        // Back in the foreground the user is waiting: a blocked main thread now is a hang.
        outsideWatch.current?.expectResponse(until: MonotonicClock.now() + Self.nanoseconds(1))
    }

    func programForeground(index: Int, start: UInt64) {
        let resumed = isSuspended ? endSuspension(endedBy: "foreground", continueProcess: true) : start
        systemEvents.append(WorkloadEvent(time: resumed, body: .stateChanged(StateChange(from: .background, to: .active))))
        record(.foreground, index: index, start: resumed)
    }

    /// SIGTERM to every process of the run; SIGKILL to all after the terminate watchdog.
    func programTerminate(index: Int, start: UInt64) {
        if isSuspended { endSuspension(endedBy: "terminate", continueProcess: true) }
        ending.requestTerminate()
        outsideWatch.current?.expectResponse(until: start + Self.nanoseconds(options.terminateWatchdog))
        signalEveryProcess(SIGTERM)
        var problem: String?
        let deadline = start + Self.nanoseconds(options.terminateWatchdog)
        if process.waitForExit(until: deadline) == nil {
            problem = "terminate watchdog: still running \(DisplayFormat.number(options.terminateWatchdog)) s after SIGTERM"
            kill(outcome: .killedWatchdog, detail: problem!)
        } else {
            waitForOtherProcesses(until: deadline)
        }
        record(.terminate, index: index, start: start, problem: problem)
        ending.stop()
    }

    /// The system's kill: SIGKILL to every process of the run, no warning.
    func programKill(index: Int, start: UInt64) {
        systemKill(from: isSuspended ? .suspended : .background, subject: "program", index: index, start: start) {
            killEveryProcess()
        }
    }

    /// The same command again, in the same sandbox and cgroup.
    func programRelaunch(index: Int, start: UInt64) {
        if !process.hasExited {
            if isSuspended { endSuspension(endedBy: "relaunch", continueProcess: false) }
            killEveryProcess()
        }
        guard relaunchProcess(index: index, start: start) else { return }
        systemEvents.append(WorkloadEvent(time: process.spawnTime, body: .stateChanged(StateChange(from: .notRunning, to: .active))))
        record(.relaunch, index: index, start: process.spawnTime)
    }

    /// The configured signal (`HarnessOptions.programMemoryWarningSignal`), with the memory
    /// samples around it; not applicable when none is configured.
    func programMemoryWarning(_ level: MemoryWarningLevel, index: Int, start: UInt64) {
        guard programMemoryWarningSignal != nil else {
            record(.memoryWarning(level: level), index: index, start: start,
                   problem: "not applicable: no memory-warning signal is configured for this program (frugal.yml memoryWarningSignal, --memory-warning-signal)")
            return
        }
        sequence += 1
        outsideWatch.current?.expectResponse(until: start + Self.nanoseconds(1))
        let (_, problem) = deliverWarning(level, origin: "scenario", sequence: sequence)
        record(.memoryWarning(level: level), index: index, start: start, problem: problem)
    }

    /// The configured input signal (`RunPlan.programInputSignal`) to the spawned process, as the user's
    /// input: the program is expected to answer, so a blocked main thread in the next second is a hang.
    /// Not applicable when none is configured.
    func programInput(_ kind: String, index: Int, start: UInt64) {
        guard let signal = plan.programInputSignal else {
            record(.input(kind: kind), index: index, start: start,
                   problem: "not applicable: no input signal is configured for this program (frugal.yml inputSignal); it has no FrugalKit event loop for the harness to deliver input(\(kind)) to")
            return
        }
        outsideWatch.current?.expectResponse(until: start + Self.nanoseconds(1))
        var problem: String?
        do {
            try SystemCall.retrying("kill", subject: "\(process.pid)") { Glibc.kill(process.pid, signal) }
        } catch {
            problem = "could not send \(ProgramSignal.name(signal)) to pid \(process.pid): \(error)"
        }
        record(.input(kind: kind), index: index, start: start, problem: problem)
    }

    /// Ends a program whose scenario is over: the default scenario (`launch` alone) lets it run to
    /// its end within the command timeout; any other gets SIGTERM and the terminate watchdog.
    func endProgramAtScenarioEnd() {
        if plan.scenario.steps == [.launch] {
            if process.waitForExit(until: process.spawnTime + Self.nanoseconds(options.commandTimeout)) == nil {
                kill(outcome: .timedOut, detail: "still running after \(DisplayFormat.number(options.commandTimeout)) s")
            }
            return
        }
        signalEveryProcess(SIGTERM)
        let deadline = MonotonicClock.now() + Self.nanoseconds(options.terminateWatchdog)
        if process.waitForExit(until: deadline) == nil {
            kill(outcome: .timedOut, detail: "still running \(DisplayFormat.number(options.terminateWatchdog)) s after SIGTERM at the end of the scenario")
        } else {
            ending.requestTerminate()
            waitForOtherProcesses(until: deadline)
        }
    }

    /// After SIGTERM to every process: the others get the same watchdog to end as the main one
    /// (a wrapper often dies first); what is left when it runs out is a straggler.
    func waitForOtherProcesses(until deadline: UInt64) {
        while !otherProcesses().isEmpty && MonotonicClock.now() < deadline {
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    /// A program's own exit: status 0, or death by the SIGTERM the scenario sent, is a normal end.
    func classifyProgramExit(_ status: ExitStatus) -> (RunOutcome, String?) {
        if terminated && (status.code == 0 || status.signal == SIGTERM) { return (.completed, nil) }
        if status.code == 0 {
            let early = plan.scenario.steps != [.launch] && !terminated
            return (.completed, early ? "exited with status 0 before the scenario ended" : nil)
        }
        return ScenarioRunner.classify(status, terminated: true)
    }

    /// The signal this program gets as its memory warning: its plan's, else the harness's; nil: none.
    var programMemoryWarningSignal: Int32? { plan.programMemoryWarningSignal ?? options.programMemoryWarningSignal }

    /// After a spawn: the program has no control pipe, and its main thread is watched from outside.
    func startProgramWatch() {
        process.closeControl()
        let group = containment
        let root = process.pid
        outsideWatch.start(OutsideHangWatcher(root: root, members: {
            group?.pids ?? ProcessGroupScan.members(ofGroup: root)
        }, interval: Self.outsideWatchInterval))
    }

    /// 25 ms: a tenth of the hang limit, so a 250 ms stretch is seen to within 10%.
    static let outsideWatchInterval = 0.025

    /// Black-box facts for the record: the main thread's hangs seen from outside.
    func recordProgramFacts(into record: inout RunRecord) {
        record.outsideWatch = outsideWatch.facts(intervalSeconds: Self.outsideWatchInterval)
    }
}
