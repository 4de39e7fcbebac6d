extension StepKind {
    /// `balloon: SIZE`: start a memory hog of that size in the workload's cgroup.
    public static let balloon = StepKind(
        name: "balloon", summary: "start a memory hog of a size in the workload's cgroup",
        form: .bytes, timedBy: nil, needsMemoryCgroup: true, needsMachine: true, needsWorkloadHost: true, label: .argument(prefix: "balloon "),
        app: { step, harness in harness.startBalloon(bytes: step.bytes) },
        program: .same)
}

extension ScenarioStep {
    /// Start a memory hog of `bytes` in the workload's cgroup.
    public static func balloon(bytes: Int) -> ScenarioStep { ScenarioStep(.balloon, .bytes(bytes)) }
}
