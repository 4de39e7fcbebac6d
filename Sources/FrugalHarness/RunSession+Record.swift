import Foundation
import Synchronization
import FrugalCore
import FrugalProbe

/// The end of each process of a run (reaped, its counters read, what it reported kept) and the
/// run's record, made from all of them.
extension RunSession {
    /// Reaps the current process and keeps what it reported.
    func archiveCurrentProcess() throws {
        guard let exit = process.waitForExit(until: clock.now() + Self.nanoseconds(30)) else {
            throw HarnessError.unreapable(workload: workload, pid: process.pid)
        }
        interruptionHold.release(from: options.interruption)
        container.endStragglers(main: process, mainExit: exit.time, mainCommand: launchArguments.joined(separator: " "))
        outsideWatch.end(exitTime: exit.time)
        sampler.stop()
        reader.waitForEnd(until: clock.now() + Self.nanoseconds(2))
        hangWatcher.stop()
        // Read once the process is reaped: the kernel folds a child's inherited counts into its
        // parent's counter when the child exits.
        counters.fold()
        if let failure = reader.failure, ending.outcome == nil {
            // What the app wrote after the failure was never seen: no verdict can rest on it.
            ending.decide(.harnessError, detail: failure)
        }
        archive.add(ProcessArchive.Entry(reaped: process, exit: exit, reader: reader, sampler: sampler))
    }

    /// After the last step: ends the app if the scenario did not, reaps it, and builds the record.
    func finish() throws -> RunRecord {
        // Whatever happens below, nothing of the run outlives it: processes, cgroup, servers, sandbox.
        defer { teardown() }
        if suspension.isSuspended { endSuspension(endedBy: "end of scenario", continueProcess: true) }
        // A run whose app had already terminated cleanly when the signal came is complete, not interrupted.
        let endedCleanly = ending.terminateRequested && process.waitForExit(until: 0)?.status.code == 0
        if !endedCleanly && checkInterruption() && !process.hasExited { process.kill(SIGKILL) }
        if isBlackBox && !ending.terminateRequested && !process.hasExited && ending.outcome == nil {
            ProgramSteps.endAtScenarioEnd(self)
        } else if !ending.terminateRequested && !process.hasExited && ending.outcome == nil {
            // The scenario ended without terminate: close the control pipe (the app ends itself on
            // EOF) and give it the terminate budget before killing it.
            process.closeControl()
            if process.waitForExit(until: clock.now() + Self.nanoseconds(options.terminateWatchdog)) == nil {
                kill(outcome: .timedOut, detail: "did not exit within \(DisplayFormat.number(options.terminateWatchdog)) s after the scenario ended")
            }
        }
        // The signal may also come while a program runs to its end here (a command's whole life);
        // one that exited 0 all the same is complete.
        if ending.outcome == nil && process.waitForExit(until: 0)?.status.code != 0 { _ = checkInterruption() }
        do {
            try archiveCurrentProcess()
        } catch {
            _ = memory.finish(workloadKilledBySIGKILL: false, harnessKilled: true)
            throw error
        }
        let processes = archive.entries
        guard let first = processes.first, let last = processes.last else { throw HarnessError.noProcessRun }
        // Whether the kernel's OOM killer ended the run is decided on the last process's exit.
        let memoryFacts = finishMemory(exit: last.segment.exitStatus ?? ExitStatus())
        let containmentFacts = container.finish(main: process, mainProcesses: processes.map(\.segment.pid), seen: sampler.otherProcesses)
        // Trace times are on the run's clock: seconds since the first process's exec.
        let networkRecord = network?.finish(spawnTime: first.segment.startTime)
        if ending.outcome == nil {
            if killedByScenario {
                ending.decide(.completed, detail: "ended by the scenario's kill step")
            } else if let status = last.segment.exitStatus {
                let (classified, detail) = isBlackBox ? ProgramSteps.classifyExit(self, status)
                    : ScenarioRunner.classify(status, terminated: ending.terminateRequested)
                ending.decide(classified, detail: detail)
            }
        }
        // Stable order by time: the harness's state changes fall between the app's own events.
        let events = (processes.flatMap(\.events) + systemEvents).enumerated()
            .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        let usages = processes.compactMap(\.segment.resourceUsage)
        var record = RunRecord(workload: workload, scenario: plan.scenario.name, repetition: plan.repetition,
                               startTime: first.segment.startTime, endTime: last.segment.endTime, pid: last.segment.pid, steps: steps,
                               events: events, samples: processes.flatMap(\.samples).sorted { $0.time < $1.time },
                               outcome: ending.outcome ?? .crashed, outcomeDetail: ending.detail, exitStatus: last.segment.exitStatus,
                               resourceUsage: usages.count == processes.count ? ResourceUsage.total(usages) : nil,
                               blackBox: isBlackBox, network: networkRecord)
        record.containment = containmentFacts
        record.sandboxPath = container.sandbox.root.path
        // Before the disk scan below, which reads the sandbox itself.
        record.resources = watches.finishResources(bundle: container.sandbox.root.appendingPathComponent(SandboxLayout.bundle))
        // The disk: the processes' final `/proc/<pid>/io` and event streams, and the sandbox as
        // the app left it, read before it is deleted.
        record.finalIO = archive.finalIO
        record.eventStreamBytes = archive.eventStreamBytes
        record.sandboxFiles = SandboxScanner.scan(root: container.sandbox.root).map {
            DownloadMatcher.markServed($0, root: container.sandbox.root, requests: record.network?.requests ?? [])
        }
        if let changes = watches.finishFiles() { record.fileChanges = changes }
        record.processes = processes.map(\.segment)
        record.suspensions = suspension.records.isEmpty ? nil : suspension.records
        if plan.scenario.steps.contains(.home) { record.backgroundTimeBudget = plan.scenario.effectiveBackgroundTimeBudget }
        record.memory = memoryFacts
        record.threadEvidence = processes.flatMap(\.threads)
        // A black box's main thread, watched from outside.
        if isBlackBox {
            record.outsideWatch = outsideWatch.facts()
            // What it could draw on: the harness's environment with the run's on top, as the
            // launcher gives it (`ChildProcess+Linux`).
            record.displayServer = RunSpawn.displayServer(in: ProcessInfo.processInfo.environment
                .merging(options.environment) { $1 }.merging(launchEnvironment) { $1 })
        }
        record.hardwareCounters = counters.hardwareTotal
        record.syncCalls = counters.syncTotal
        record.wakeups = watches.finishWakeups()
        record.measuredEnergy = watches.endEnergy()
        return record
    }

    /// Ends everything the run holds, once: idempotent, so `finish` and the runner's error path
    /// share it. Nothing of the run is left: no process, cgroup, server or sandbox.
    func teardown() {
        if tornDown { return }
        tornDown = true
        if suspension.isFrozen { container.cgroup?.thaw() }
        killEveryProcess()
        watches.stopAll()
        sampler.stop()
        hangWatcher.stop()
        outsideWatch.current?.stop()
        container.removeCgroup()
        network?.stop()
        _ = memory.finish(workloadKilledBySIGKILL: false, harnessKilled: true)
        container.close(keepSandbox: options.keepSandboxes)
    }

    /// At the end of the run: reads the OOM count, removes the cgroup, and names an OOM kill.
    func finishMemory(exit: ExitStatus) -> MemoryRunFacts {
        let facts = memory.finish(workloadKilledBySIGKILL: exit.signal == SIGKILL, harnessKilled: ending.outcome != nil)
        if facts.killedByOOM {
            ending.decide(.killedMemory, detail: "killed by the OOM killer of its memory cgroup (\(facts.cgroupController ?? "?") oom_kill \(facts.oomKills ?? 0))")
        }
        return facts
    }
}
