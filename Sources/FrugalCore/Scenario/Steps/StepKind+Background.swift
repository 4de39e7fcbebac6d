extension StepKind {
    /// `background: SECONDS`: an app switch, the round trip the guide's users make all day —
    /// "When the user presses the Home button, presses the Sleep/Wake button, or the system
    /// launches another app, the foreground app transitions to the inactive state and then to the
    /// background state", and "Returning to the foreground is your app's chance to restart the
    /// tasks that it stopped when it moved to the background" (App States and Multitasking).
    /// One step for what a scenario otherwise writes as three (`home`, `wait: SECONDS`,
    /// `foreground`), so a frugal.yml of many switches reads as what the user does.
    ///
    /// It runs as those three do, one after another, and records them as themselves under its
    /// index (a `home`, a `wait` of `SECONDS`, a `foreground`), so every audit of the background,
    /// the suspension and the resume reads it unchanged; it stops after a part that ended the
    /// scenario (a watchdog kill, the app's exit). `SECONDS` counts from the end of `home`
    /// (after the background time and grace, once the app is suspended). For a black-box
    /// program: the freezer's suspension, the stay, the thaw.
    ///
    /// Timed, by its resume (as `foreground` is): the scheduler's step gate holds the machine
    /// for the whole round trip, since it is one step. For a long stay beside other runs, write
    /// the three steps instead.
    public static let background = StepKind(
        name: "background", summary: "an app switch: home, some seconds away (suspended), then back to the foreground",
        form: .seconds, timedBy: "resume time (to the end of didBecomeActive)", drawnAsLifecycle: true,
        label: .argument(prefix: "background "),
        app: { step, harness in
            harness.sendAppHome()
            guard harness.canGoOn else { return }
            harness.idle(seconds: step.seconds)
            guard harness.canGoOn else { return }
            harness.bringAppToForeground()
        },
        program: .runs { step, harness in
            harness.suspendProgram()
            guard harness.canGoOn else { return }
            harness.idle(seconds: step.seconds)
            guard harness.canGoOn else { return }
            harness.resumeProgram()
        })
}

extension ScenarioStep {
    /// An app switch: `home`, `seconds` away (suspended), then `foreground`.
    public static func background(seconds: Double) -> ScenarioStep { ScenarioStep(.background, .seconds(seconds)) }
}
