extension StepKind {
    /// `pressure: SIZE`: shrink the workload's memory cgroup limit: real reclaim, then OOM.
    public static let pressure = StepKind(
        name: "pressure", summary: "shrink the workload's memory cgroup limit to a size: real kernel reclaim, then OOM",
        form: .bytes, timedBy: nil, needsMemoryCgroup: true, needsMachine: true, label: .argument(prefix: "pressure "),
        app: { step, harness in harness.limitMemory(to: step.bytes) },
        program: .same)
}

extension ScenarioStep {
    /// Shrink the workload's memory cgroup limit to `limitBytes`: real kernel reclaim, then OOM.
    public static func pressure(limitBytes: Int) -> ScenarioStep { ScenarioStep(.pressure, .bytes(limitBytes)) }
}
