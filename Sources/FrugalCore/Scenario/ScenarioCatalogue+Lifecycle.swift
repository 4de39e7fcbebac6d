extension ScenarioCatalogue {
    /// Edits, home, killed while suspended, relaunched: does the app restore what it had?
    public static let saveState = Scenario(
        name: "save-state",
        summary: "launch, 3 edits, home (suspended), 1 s, kill, relaunch, 0.5 s, terminate",
        steps: [.launch] + ScenarioStep.repeating([.input(kind: "edit"), .wait(seconds: 0.2)], times: 3)
            + [.home, .wait(seconds: 1), .kill, .relaunch, .wait(seconds: 0.5), .terminate]
    )

    /// A 3 s interruption (an alert, a call) between two short active phases.
    public static let interruption = Scenario(
        name: "interruption",
        summary: "launch, 1 s, a 3 s interruption (inactive), 1 s, terminate",
        steps: [.launch, .wait(seconds: 1), .interrupt(seconds: 3), .wait(seconds: 1), .terminate]
    )

    /// Home while a 2 s upload is in flight, with 4 s of background time.
    public static let backgroundUpload = Scenario(
        name: "background-upload",
        summary: "launch, input upload, home with 4 s of background time, 1 s suspended, foreground, terminate",
        steps: [.launch, .input(kind: "upload"), .home, .wait(seconds: 1), .foreground, .wait(seconds: 0.3), .terminate],
        backgroundTimeBudget: 4
    )

    /// A full round trip through suspension, with a notification queued while suspended.
    public static let suspendResume = Scenario(
        name: "suspend-resume",
        summary: "launch, 0.5 s, home, 1.5 s suspended (a notification queued), foreground, 0.5 s, terminate",
        steps: [.launch, .wait(seconds: 0.5), .home, .wait(seconds: 0.75), .notify(name: "significant-time-change"),
                .wait(seconds: 0.75), .foreground, .wait(seconds: 0.5), .terminate]
    )

    /// Three refreshes with time between them.
    public static let refresh = Scenario(
        name: "refresh",
        summary: "launch, 3 refreshes 0.5 s apart, 1 s idle, terminate",
        steps: [.launch] + ScenarioStep.repeating([.input(kind: "refresh"), .wait(seconds: 0.5)], times: 3)
            + [.wait(seconds: 1), .terminate]
    )

    /// The lifecycle scenarios.
    static let lifecycle: [Scenario] = [saveState, interruption, backgroundUpload, suspendResume, refresh]
}
