extension StepKind {
    /// `foreground`: the user returns; the suspended process is continued and made active.
    public static let foreground = StepKind(
        name: "foreground", summary: "the user returns: the process is continued, then willEnterForeground and didBecomeActive",
        form: .none, timedBy: "resume time (to the end of didBecomeActive)", drawnAsLifecycle: true,
        make: { $0 == .none ? .foreground : nil })
}
