import FrugalCore

/// The wakeup tracer's part of a run (`WakeupTracer`): started on the run's cgroup before the
/// program is born there, finished once its processes have ended.
extension RunSession {
    /// The tracer on the run's v2 cgroup, or why there can be none.
    static func startWakeupTracer(containment: RunCgroup?, containmentUnavailable: String?) -> Result<WakeupTracer, WakeupTraceUnavailable> {
        guard let containment else {
            return .failure(WakeupTraceUnavailable("the run has no cgroup to trace (\(containmentUnavailable ?? "none was made"))"))
        }
        guard containment.kind == .v2 else {
            return .failure(WakeupTraceUnavailable("the run's cgroup is a v1 group: perf events follow v2 (unified) cgroups only"))
        }
        return WakeupTracer.start(cgroupPath: containment.path)
    }

    /// Stops the tracer and attributes the wakeups it saw; nil when the run was not traced or
    /// the trace was already finished.
    func finishWakeupTrace() -> WakeupAttribution? { watches.finishWakeups() }
}
