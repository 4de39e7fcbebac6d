/// Scenarios written for black-box programs (`frugal run --scenario NAME -- CMD`): only steps a
/// program without FrugalKit can be put through (time, the freezer, signals, the proxy, pressure).
extension ScenarioCatalogue {
    /// Launch, 2 s running, the background (frozen after the grace) for 3 s, back for 2 s, SIGTERM:
    /// shows idle wakeups, listening sockets while suspended, 0 CPU while frozen, a clean exit.
    public static let programLifecycle = Scenario(
        name: "program-lifecycle",
        summary: "launch, 2 s, home (frozen) 3 s, foreground, 2 s, terminate (SIGTERM)",
        steps: [.launch, .wait(seconds: 2), .home, .wait(seconds: 3), .foreground, .wait(seconds: 2), .terminate]
    )

    /// Launch, 2 s, a 64 MiB cgroup limit (real reclaim), 3 s, terminate: whether the program survives pressure.
    public static let programPressure = Scenario(
        name: "program-pressure",
        summary: "launch, 2 s, memory limit 64 MiB (cgroup), 3 s, terminate (SIGTERM)",
        steps: [.launch, .wait(seconds: 2), .pressure(limitBytes: 64 << 20), .wait(seconds: 3), .terminate]
    )

    public static let program: [Scenario] = [programLifecycle, programPressure]
}
