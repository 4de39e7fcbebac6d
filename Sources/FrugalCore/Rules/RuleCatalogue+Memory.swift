extension RuleCatalogue {
    static let lowMemorySection = "Performance Tuning › Use Memory Efficiently › Observe Low-Memory Warnings"
    static let footprintSection = "Performance Tuning › Use Memory Efficiently › Reduce Your App's Memory Footprint"
    static let backgroundMemorySection = "App States and Multitasking › Memory Usage for Background Apps"

    /// Memory.
    public static let memory: [Rule] = [
        Rule(id: "memory.respond-to-warnings", category: .memory, title: "Free memory on a warning",
             guideSection: lowMemorySection,
             guideQuote: "If your app receives this warning, it must free up as much memory as possible.",
             measures: "of the footprint the app gained since launch (its footprint at the warning less the least it held between launch and the warning), the fraction still held 1 s after the warning; the worst warning. Footprint as iOS counts it: dirty private memory, smaps_rollup Anonymous − LazyFree, sampled from outside at delivery and 1 s later, after FrugalKit has trimmed glibc's arenas as Darwin's allocator gives freed pages back on a warning; not applicable when the app had gained less than 4 MiB", unit: "fraction",
             scoring: .logNormal(good: 0.1, poor: 0.5),
             calibration: "\(rulesProposal) for the control points. Judged on the footprint any app has (a plain dictionary as much as FrugalKit's Cache), not on FrugalKit's ledger of its own caches, which gave 1.0 to an app ignoring every warning while holding 80 MiB in a dictionary; the ledger is shown as evidence. iOS's footprint (phys_footprint) is dirty plus compressed memory; clean file-backed pages and volatile purgeable memory do not count (Apple, WWDC 2018 session 416, iOS Memory Deep Dive), nor does memory the allocator has freed: Darwin's libmalloc relieves its zones on a pressure warning (malloc_zone_pressure_relief), so FrugalKit calls malloc_trim(0) after the app's handler. Against the gain since launch, from 4 MiB (as memory.free-on-background): what the app needs to run is not what it could free (the guide: \"remove strong references to caches, image objects, and other data objects that can be recreated later\").", measured: true),
        Rule(id: "memory.respond-immediately", category: .memory, title: "Respond to warnings at once",
             guideSection: lowMemorySection,
             guideQuote: "When the system dispatches a low-memory warning to your app, respond immediately.",
             measures: "ms from the harness writing the warning to the handler's return; the slowest warning", unit: "ms",
             scoring: .logNormal(good: 50, poor: 250), calibration: rulesProposal, measured: true),
        Rule(id: "memory.free-on-background", category: .memory, title: "Free memory in the background",
             guideSection: backgroundMemorySection,
             guideQuote: "Every app should free up as much memory as is practical upon entering the background.",
             measures: "of the footprint the app gained since launch (its footprint before entering the background less the least it held between launch and then), the fraction still held late in the background; the median over background intervals. Footprint as iOS counts it: dirty private memory, smaps_rollup Anonymous − LazyFree, sampled from outside, after FrugalKit has trimmed glibc's arenas on entering the background as Darwin's allocator returns freed pages; not applicable when the app had gained less than 4 MiB", unit: "ratio",
             scoring: .logNormal(good: 0.3, poor: 0.8),
             calibration: "\(rulesProposal). Calibration: judged on what the app gained above its launch footprint (the least it held between launch and the background), not on all it held, and only from 4 MiB gained: an app with little to free (the guide: \"as much memory as is practical\") is not failing, and under 4 MiB allocator noise and runtime growth are as large as what it could free. Footprint, not resident size: iOS counts dirty memory, not clean file-backed pages (Apple, WWDC 2018 session 416, iOS Memory Deep Dive), and not memory the allocator has freed (an app that emptied an 80 MiB dictionary in didEnterBackground kept its resident size under glibc until malloc_trim).",
             measured: true),
        Rule(id: "memory.lazy-resources", category: .memory, title: "Load resources lazily",
             guideSection: footprintSection,
             guideQuote: "You should never load a resource file until it is actually needed.",
             measures: "bytes loaded at launch and not used during the scenario", unit: "bytes",
             scoring: .logNormal(good: 262_144, poor: 4_194_304), calibration: rulesProposal, measured: true),
        Rule(id: "memory.map-large-resources", category: .memory, title: "Map large resources",
             guideSection: "Performance Tuning › Use Memory Efficiently › Allocate Memory Wisely",
             guideQuote: "rather than load the entire file into memory, use the mmap and munmap functions to map portions of the file into and out of memory.",
             measures: "peak anonymous bytes holding copies of resource files over 1 MiB", unit: "bytes",
             scoring: .logNormal(good: 1_048_576, poor: 16_777_216), calibration: rulesProposal, measured: true),
        Rule(id: "memory.no-leaks", category: .memory, title: "No leaks",
             guideSection: footprintSection,
             guideQuote: "Because memory is a critical resource in iOS, your app should have no memory leaks.",
             measures: "median growth of held anonymous bytes (smaps_rollup) per identical foreground/background cycle", unit: "bytes",
             scoring: .logNormal(good: 65_536, poor: 1_048_576), calibration: rulesProposal, measured: true),
        Rule(id: "memory.survive-pressure", category: .memory, title: "Survive memory pressure",
             guideSection: backgroundMemorySection,
             guideQuote: "Apps that consume large amounts of memory while in the background are the first apps to be terminated.",
             measures: "killed under real pressure (cgroup limit): 1 if killed, 0 if not", unit: "count",
             scoring: .binary(maxPassing: 0), calibration: rulesProposal, measured: true),
    ]
}
