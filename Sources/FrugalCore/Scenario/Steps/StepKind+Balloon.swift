extension StepKind {
    /// `balloon: SIZE`: start a memory hog of that size in the workload's cgroup.
    public static let balloon = StepKind(
        name: "balloon", summary: "start a memory hog of a size in the workload's cgroup",
        form: .bytes, timedBy: nil, needsMemoryCgroup: true, needsMachine: true, needsWorkloadHost: true, label: .argument(prefix: "balloon "),
        make: { if case .bytes(let bytes) = $0 { return .balloon(bytes: bytes) } else { return nil } })
}
