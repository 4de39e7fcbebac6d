extension StepKind {
    /// `home`: the user leaves the app; after its background time and grace it is suspended.
    public static let home = StepKind(
        name: "home", summary: "the user leaves the app: inactive, background, then suspended for real",
        form: .none, timedBy: "the didEnterBackground watchdog and the background time", drawnAsLifecycle: true,
        make: { $0 == .none ? .home : nil })
}
