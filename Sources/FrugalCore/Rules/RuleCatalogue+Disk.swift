extension RuleCatalogue {
    static let fileAccessSection = "Performance Tuning › Improve File Access Times"
    static let backupSection = "Performance Tuning › Make App Backups More Efficient"

    /// Disk.
    public static let disk: [Rule] = [
        Rule(id: "disk.avoid-frequent-writes", category: .disk, title: "Avoid frequent writes",
             guideSection: reducePowerSection,
             guideQuote: "Avoid accessing the disk too frequently. For example, if your app saves state information to the disk, do so only when that state information changes, and coalesce changes whenever possible to avoid writing small changes at frequent intervals.",
             measures: "small write operations per minute: content writes under 64 KiB through FrugalKit in the busiest 60 s window (a shorter run counts as one minute)", unit: "1/min",
             scoring: .logNormal(good: 2, poor: 30),
             calibration: "\(rulesProposal). Calibration: only writes under 64 KiB count, the guide's \"small changes\": their cost is per operation (journal commit, fsync metadata), while a download or an export's 1 MiB chunks cost their bytes and are judged by disk.write-budget.",
             measured: true),
        Rule(id: "disk.write-changed-portions", category: .disk, title: "Write only what changed",
             guideSection: fileAccessSection,
             guideQuote: "Write only the portions of the file that changed, and aggregate changes when you can. Avoid writing out the entire file just to change a few bytes.",
             measures: "write amplification: bytes written ÷ bytes that changed (4 KiB blocks that differ from the previous content), over writes to files that already existed", unit: "×",
             scoring: .logNormal(good: 2, poor: 16), calibration: rulesProposal, measured: true),
        Rule(id: "disk.write-budget", category: .disk, title: "Stay within a write budget",
             guideSection: fileAccessSection,
             guideQuote: "Minimize the amount of data you write to the disk.",
             measures: "bytes written from launch's end to the run's end (through FrugalKit, plus what /proc wchar shows written around it), per day: a run shorter than a day is scored on what it wrote, not extrapolated", unit: "bytes/day",
             scoring: .logNormal(good: 100_000_000, poor: 1_000_000_000),
             calibration: "\(rulesProposal); 1 GB/day is Apple's limit (\(appleLimits)). Calibration of the window: Apple counts writes over 24 h; a scenario lasts seconds, and multiplying one export or a few downloads by the day's seconds read a few MB as hundreds of GB. A shorter run is judged on what it wrote (a lower bound on its day), launch writes are left out of it, and the user's existing documents are installed with the sandbox (RunPlan.documents), so the window starts with the app in use.", measured: true),
        Rule(id: "disk.no-cache-files", category: .disk, title: "Do not write cache files",
             guideSection: fileAccessSection,
             guideQuote: "Avoid writing cache files to disk. The only exception to this rule is when your app quits and you need to write state information that can be used to put your app back into the same state when it is next launched.",
             measures: "bytes written to Library/Caches, or declared as cache data wherever they went, outside quitting (willTerminate, didEnterBackground); a new file's first write into Library/Caches is not counted", unit: "bytes",
             scoring: .logNormal(good: 65_536, poor: 1_048_576),
             calibration: "\(rulesProposal). What counts follows the guide's own exceptions: \"when your app quits\" covers didEnterBackground too (an iOS app is killed from suspension without quitting, and the guide asks for unsaved changes to be written when entering the background); and the guide puts \"downloadable content, such as that used by magazine, newspaper, and map apps\" in Library/Caches, so storing a new file there is placement, not a cache file rewritten.",
             measured: true),
        Rule(id: "disk.backup-placement", category: .disk, title: "Put data where backups treat it right",
             guideSection: backupSection,
             guideQuote: "Critical data should be stored in the <Application_Home>/Documents directory. Critical data is any data that cannot be recreated by your app, such as user documents and other user-generated content.",
             measures: "bytes of re-creatable data (declared support, cache or temporary) that backups copy at the end: in Documents or Library and not excluded from backup", unit: "bytes",
             scoring: .logNormal(good: 1_048_576, poor: 10_485_760), calibration: rulesProposal, measured: true),
        Rule(id: "disk.clean-tmp", category: .disk, title: "Clean up tmp",
             guideSection: backupSection,
             guideQuote: "Remember to delete those files when you are done with them so that they do not continue to consume space on the user's device.",
             measures: "bytes left in tmp at the end", unit: "bytes",
             scoring: .logNormal(good: 65_536, poor: 4_194_304), calibration: rulesProposal, measured: true),
    ]
}
