extension RuleCatalogue {
    static let fileAccessSection = "Performance Tuning › Improve File Access Times"
    static let backupSection = "Performance Tuning › Make App Backups More Efficient"

    /// Disk.
    public static let disk: [Rule] = [
        Rule(id: "disk.avoid-frequent-writes", category: .disk, title: "Avoid frequent writes",
             guideSection: reducePowerSection,
             guideQuote: "Avoid accessing the disk too frequently. For example, if your app saves state information to the disk, do so only when that state information changes, and coalesce changes whenever possible to avoid writing small changes at frequent intervals.",
             measures: "write operations per minute: content writes through FrugalKit in the busiest 60 s window (a shorter run counts as one minute)", unit: "1/min",
             scoring: .logNormal(good: 2, poor: 30), calibration: rulesProposal, measured: true),
        Rule(id: "disk.write-changed-portions", category: .disk, title: "Write only what changed",
             guideSection: fileAccessSection,
             guideQuote: "Write only the portions of the file that changed, and aggregate changes when you can. Avoid writing out the entire file just to change a few bytes.",
             measures: "write amplification: bytes written ÷ bytes that changed (4 KiB blocks that differ from the previous content), over writes to files that already existed", unit: "×",
             scoring: .logNormal(good: 2, poor: 16), calibration: rulesProposal, measured: true),
        Rule(id: "disk.write-budget", category: .disk, title: "Stay within a write budget",
             guideSection: fileAccessSection,
             guideQuote: "Minimize the amount of data you write to the disk.",
             measures: "bytes written per day at the scenario's rate (through FrugalKit, plus what /proc wchar shows written around it)", unit: "bytes/day",
             scoring: .logNormal(good: 100_000_000, poor: 1_000_000_000),
             calibration: "\(rulesProposal); 1 GB/day is Apple's limit (\(appleLimits))", measured: true),
        Rule(id: "disk.no-cache-files", category: .disk, title: "Do not write cache files",
             guideSection: fileAccessSection,
             guideQuote: "Avoid writing cache files to disk. The only exception to this rule is when your app quits and you need to write state information that can be used to put your app back into the same state when it is next launched.",
             measures: "bytes written to Library/Caches, or declared as cache data wherever they went, before willTerminate", unit: "bytes",
             scoring: .logNormal(good: 65_536, poor: 1_048_576), calibration: rulesProposal, measured: true),
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
