extension StepKind {
    /// `pressure: SIZE`: shrink the workload's memory cgroup limit: real reclaim, then OOM.
    public static let pressure = StepKind(
        name: "pressure", summary: "shrink the workload's memory cgroup limit to a size: real kernel reclaim, then OOM",
        form: .bytes, timedBy: nil, needsMemoryCgroup: true, needsMachine: true, label: .argument(prefix: "pressure "),
        make: { if case .bytes(let bytes) = $0 { return .pressure(limitBytes: bytes) } else { return nil } })
}
