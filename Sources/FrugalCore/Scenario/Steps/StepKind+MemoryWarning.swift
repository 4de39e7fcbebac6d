extension StepKind {
    /// `memoryWarning: LEVEL`: deliver a simulated, iOS-style low-memory warning.
    /// Not timed: judged on memory freed; the run has the machine to itself anyway.
    public static let memoryWarning = StepKind(
        name: "memoryWarning", summary: "deliver a low-memory warning (warning, critical or normal) to the app",
        form: .level, timedBy: nil, needsMachine: true, label: .argument(prefix: "warning "),
        make: { if case .level(let level) = $0 { return .memoryWarning(level: level) } else { return nil } })
}
