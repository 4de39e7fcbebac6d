extension StepKind {
    /// `home`: the user leaves the app; after its background time and grace it is suspended.
    /// Not timed: the step waits out the background time, judged on counts (CPU in the
    /// background, lost changes, a kill when the time runs out); its one timed part,
    /// `didEnterBackground` (tens of ms against `lifecycle.background-transition`'s 100 ms good,
    /// 1 s poor), has the margin to share the machine.
    public static let home = StepKind(
        name: "home", summary: "the user leaves the app: inactive, background, then suspended for real",
        form: .none, timedBy: nil, drawnAsLifecycle: true,
        make: { $0 == .none ? .home : nil })
}
