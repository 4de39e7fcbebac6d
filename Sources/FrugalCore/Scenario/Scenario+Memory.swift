extension ScenarioCatalogue {
    /// Fills a gallery's image cache (4 scrolls of 24 MiB), shrinks the cgroup limit below
    /// that to 64 MiB (real reclaim; the kernel's pressure events become warnings), then
    /// scrolls once more: an app that hoards is OOM-killed or fails to free; one that purges lives.
    ///
    /// The limit leaves room for what a good app cannot give back: the scroll it is showing
    /// (24 MiB of decoded images, all held until the scroll is drawn), its own heap (3.5 MiB) and
    /// the pages of its code and libraries (27 MiB of file pages in a debug build), 55 MiB in
    /// all. At 48 MiB the good gallery lived only if reclaim could take its code's pages from
    /// under it while it decoded: it did on a quiet machine, and beside CI's other test lanes
    /// the OOM killer took it once in its last scroll. The hoarder's 96 MiB of cache does not
    /// fit either way.
    public static let galleryPressure = Scenario(
        name: "gallery-pressure",
        summary: "launch, 4 scrolls (96 MiB of images), pressure to 64 MiB, 1.5 s, a scroll, terminate",
        steps: [.launch] + Array(repeating: ScenarioStep.input(kind: "scroll"), count: 4)
            + [.wait(seconds: 0.5), .pressure(limitBytes: 64 << 20), .wait(seconds: 1.5), .input(kind: "scroll"), .wait(seconds: 0.5), .terminate]
    )

    /// Shows one region of a 64 MiB atlas, receives a warning, shows it again: how much of the
    /// file is copied, and what re-touching given-back pages costs.
    public static let atlas = Scenario(
        name: "atlas",
        summary: "launch, 0.3 s, show a 1 MiB region of a 64 MiB atlas, a warning, show it again, terminate",
        // The wait samples the launched app just before the first show: the baseline of its growth.
        steps: [.launch, .wait(seconds: 0.3), .input(kind: "show"), .wait(seconds: 0.5), .memoryWarning(level: .warning),
                .input(kind: "show"), .wait(seconds: 0.5), .terminate]
    )

    /// Launch, open one screen, 1 s, terminate: what was loaded at launch and never used.
    public static let startup = Scenario(
        name: "startup",
        summary: "launch, open one screen, 1 s idle, terminate",
        steps: [.launch, .input(kind: "open"), .wait(seconds: 1), .terminate]
    )

    /// Six identical workload-driven foreground/background cycles (`input(cycle)`), each
    /// followed by a short settle: resident growth per cycle.
    public static let cycles = Scenario(
        name: "cycles",
        summary: "launch, 6 identical session cycles (input(cycle) + 0.3 s), terminate",
        steps: [.launch] + ScenarioStep.repeating([.input(kind: MemoryAnalysis.cycleInput), .wait(seconds: 0.3)], times: 6)
            + [.terminate]
    )

    /// The memory scenarios.
    public static let memory: [Scenario] = [galleryPressure, atlas, startup, cycles]
}
