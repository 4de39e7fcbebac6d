import Foundation
import FrugalCore
import FrugalProbe

/// The memory area's part of a run: a warning to the current process (the steps are
/// `Steps/MemorySteps.swift`), the kernel's pressure events forwarded as warnings, and OOM
/// detection at the end.
extension RunSession {
    /// Sends a warning and samples the process's memory from outside just before, 100 ms and
    /// 1 s after. Blocks for about 1 s.
    func deliverWarning(_ level: MemoryWarningLevel, origin: String, sequence: Int) -> (WarningDelivery, String?) {
        memory.deliverWarning(level, origin: origin, sequence: sequence, to: (process, sampler),
                              programSignal: isBlackBox ? programMemoryWarningSignal : nil)
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
