extension StepKind {
    /// `relaunch`: start the app again, a new process in the same run and sandbox.
    public static let relaunch = StepKind(
        name: "relaunch", summary: "start the app again: a new process in the same run and sandbox",
        form: .none, timedBy: "launch time of the new process", drawnAsLifecycle: true,
        make: { $0 == .none ? .relaunch : nil })
}
