import Foundation
import FrugalCore

extension MemoryPressure {
    /// On a pure v2 machine a pressure run's memory group is v2 too, and a process is in one v2
    /// group only: that group is then the run's group as well, made first, before the run's
    /// cgroup (`RunContainer`). Nil elsewhere, or when no memory group was made.
    static func v2First(plan: RunPlan, workload: String, options: HarnessOptions, startsSystemProcesses: Bool) -> MemoryPressure? {
        guard startsSystemProcesses, case .success(let own) = MemoryCgroup.ownGroup(), own.0 == .v2 else { return nil }
        let pressure = MemoryPressure(plan: plan, workload: workload, forwardKernelEvents: options.forwardKernelPressure)
        return pressure.cgroup != nil ? pressure : nil
    }
}
