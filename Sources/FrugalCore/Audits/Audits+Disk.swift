extension Audits {
    /// Disk audits (docs/RULES.md, Disk). Each is not applicable when the app wrote nothing.
    static let disk: [Audit] = [
        Audit("disk.avoid-frequent-writes") { analysis, metrics in
            let disk = DiskActivity(analysis)
            if let kernel = disk.kernel {
                // The kernel's view: every file closed after writing or renamed into place, whoever wrote it.
                guard !kernel.writes.isEmpty else { return .notApplicable(Self.nothingWritten(kernel)) }
                let busiest = kernel.busiestWindow()
                var evidence = kernel.smallWrites.prefix(30).map { change in
                    Evidence(time: analysis.runTime(change.time), description: KernelFileActivity.describe(change))
                }
                evidence += journalDetail(disk, analysis) + overflowDetail(kernel) + platformDetail(kernel)
                // Both are lower bounds of the writes made: the kernel's view misses saves the
                // watcher read late on a busy machine (one read holds two saves; a bad app's 60
                // saves through FileStore once read as 17), and FrugalKit's journal sees only
                // FileStore's writes. The larger is the count.
                let journaled = disk.busiestWindow().count
                if journaled > busiest.count {
                    evidence.append(Evidence(description: "FrugalKit's journal counted \(journaled) small writes in its busiest minute, more than the kernel's view showed (\(busiest.count): saves read together by the sandbox watcher): the journal's count is used"))
                    return .value(Double(journaled), display: "\(journaled) small write\(journaled == 1 ? "" : "s") in the busiest minute (FrugalKit's journal; \(disk.writeOperations) in all)",
                                  evidence: evidence)
                }
                return .value(Double(busiest.count),
                              display: "\(busiest.count) small write\(busiest.count == 1 ? "" : "s") in the busiest minute (\(kernel.countedWriteCount) file write\(kernel.countedWriteCount == 1 ? "" : "s") in all)",
                              evidence: evidence)
            }
            guard disk.writeOperations > 0 else { return .notApplicable(Self.nothingJournaled) }
            let busiest = disk.busiestWindow()
            let evidence = disk.contentWrites.prefix(30).map { write in
                Evidence(time: analysis.runTime(write.start), durationMs: Double(write.end &- write.start) / 1e6,
                         description: "\(write.operation.rawValue) \(write.path): \(bytes(write.length)) from \(write.callSite)")
            }
            return .value(Double(busiest.count), display: "\(busiest.count) write\(busiest.count == 1 ? "" : "s") in the busiest minute (\(disk.writeOperations) in all)",
                          evidence: Array(evidence))
        },
        Audit("disk.write-changed-portions") { analysis, metrics in
            let disk = DiskActivity(analysis)
            if let kernel = disk.kernel {
                guard !kernel.writes.isEmpty else { return .notApplicable(Self.nothingWritten(kernel)) }
                guard let amplification = kernel.amplification else {
                    return .notApplicable("every write created a new file: nothing was rewritten")
                }
                let value = Double(amplification.written) / Double(max(1, amplification.changed))
                var evidence = kernel.updates.sorted { $0.bytesWritten - $0.changedBytes > $1.bytesWritten - $1.changedBytes }.prefix(20).map { change in
                    Evidence(time: analysis.runTime(change.time), description: KernelFileActivity.describe(change))
                }
                evidence += journalDetail(disk, analysis) + overflowDetail(kernel)
                let floored = kernel.updates.reduce(0) { $0 + $1.changedBytes } < amplification.changed
                return .value(value, display: amplificationDisplay(value, amplification, floored: floored), evidence: evidence)
            }
            guard disk.writeOperations > 0 else { return .notApplicable(Self.nothingJournaled) }
            guard let amplification = disk.amplification else {
                return .notApplicable("every write created a new file: nothing was rewritten")
            }
            let value = Double(amplification.written) / Double(max(1, amplification.changed))
            let evidence = disk.updates.sorted { $0.length - $0.changedBytes > $1.length - $1.changedBytes }.prefix(20).map { write in
                Evidence(time: analysis.runTime(write.start), durationMs: Double(write.end &- write.start) / 1e6,
                         description: "\(write.operation.rawValue) \(write.path): wrote \(bytes(write.length)), \(bytes(write.changedBytes)) of blocks changed (\(HumanUnits.bytes(Double(write.diff?.differingBytes ?? write.length))) differ) at \(write.callSite)")
            }
            let floored = disk.updates.reduce(0) { $0 + $1.changedBytes } < amplification.changed
            return .value(value, display: amplificationDisplay(value, amplification, floored: floored), evidence: Array(evidence))
        },
        Audit("disk.write-budget") { analysis, metrics in
            if analysis.record.blackBox {
                // A program has no journal: what reached storage is its evidence.
                guard let stored = metrics[MetricName.diskPhysicalBytesWritten]?.value, stored > 0 else {
                    return .notApplicable("the program wrote nothing that reached storage (write_bytes 0)")
                }
                switch Audit.require(metrics, MetricName.diskBytesWrittenPerDay) {
                case .failure(let failure): return .unavailable(failure.reason)
                case .success(let perDay):
                    let seconds = analysis.wallSeconds
                    let display = seconds >= 86_400 ? "\(bytes(Int(perDay))) per day at this run's rate"
                        : "\(bytes(Int(perDay))) reached storage in the run (a run shorter than a day is not extrapolated)"
                    return .value(perDay, display: display, evidence: [
                        Evidence(description: "\(bytes(Int(stored))) reached storage (taskstats write_bytes, every process of the run) in \(DisplayFormat.number(seconds)) s; socket and pipe writes are not disk writes and are not counted"),
                    ])
                }
            }
            let disk = DiskActivity(analysis)
            guard disk.wroteAnything else { return .notApplicable(Self.nothingLeft(disk)) }
            switch Audit.require(metrics, MetricName.diskBytesWrittenPerDay) {
            case .failure(let failure): return .unavailable(failure.reason)
            case .success(let perDay):
                let window = MetricExtraction.writeBudgetWindow(analysis)
                let logical = Int(metrics[MetricName.diskLogicalBytesWritten]?.value ?? 0)
                var evidence = [Evidence(description: "\(bytes(window.bytesAfterLaunch)) through FrugalKit in the \(DisplayFormat.number(window.days * 86_400)) s after launch; \(bytes(logical - window.bytesAfterLaunch)) during launch, counted once, not as a rate")]
                if let gap = metrics[MetricName.diskUnjournaledBytesWritten]?.value {
                    evidence.append(Evidence(description: "\(bytes(Int(gap))) written around FrugalKit (wchar − event stream − journal"
                        + (disk.kernel == nil ? ")" : "; socket, pipe and eventfd writes included, so the kernel's view below is the measure)")))
                }
                if let physical = metrics[MetricName.diskPhysicalBytesWritten]?.value {
                    evidence.append(Evidence(description: "\(bytes(Int(physical))) reached storage (write_bytes)"))
                }
                if let kernel = disk.kernel {
                    let launchEnd = analysis.record.startTime + (analysis.launchNanoseconds ?? 0)
                    evidence.append(Evidence(description: "\(bytes(kernel.bytesWritten(since: launchEnd))) put on storage by \(kernel.writes.filter { $0.time >= launchEnd }.count) writes to files in the sandbox after launch, as the kernel showed them (inotify, block diffs)"))
                }
                let display = window.days >= 1 ? "\(bytes(Int(perDay))) per day at this run's rate"
                    : "\(bytes(Int(perDay))) written after launch (a run shorter than a day is not extrapolated)"
                return .value(perDay, display: display, evidence: evidence)
            }
        },
        Audit("disk.no-cache-files") { analysis, metrics in
            let disk = DiskActivity(analysis)
            if let kernel = disk.kernel, let writes = disk.kernelCacheWritesOutsideTermination(programTermination: analysis.programTerminationStart) {
                // The kernel's view: cache files whoever wrote them; the journal adds call sites.
                guard !kernel.writes.isEmpty else { return .notApplicable(Self.nothingWritten(kernel)) }
                let total = writes.reduce(0) { $0 + $1.bytesWritten }
                var evidence = writes.prefix(20).map { change in
                    Evidence(time: analysis.runTime(change.time), description: KernelFileActivity.describe(change)
                             + (change.location == .caches ? " (in Caches)" : " (declared cache data to FrugalKit)"))
                }
                evidence += journalDetail(disk, analysis) + overflowDetail(kernel)
                return .value(Double(total), display: "\(bytes(total)) of cache data written before quitting", evidence: evidence)
            }
            guard disk.writeOperations > 0 else { return .notApplicable("the app wrote nothing through FrugalKit") }
            let writes = disk.cacheWritesOutsideTermination
            let total = writes.reduce(0) { $0 + $1.length }
            let evidence = writes.prefix(20).map { write in
                Evidence(time: analysis.runTime(write.start), description: "\(write.operation.rawValue) \(write.path) (\(write.dataClass.rawValue) data in \(write.location.title)): \(bytes(write.length)) at \(write.callSite)")
            }
            return .value(Double(total), display: "\(bytes(total)) of cache data written before quitting", evidence: Array(evidence))
        },
        Audit("disk.backup-placement") { analysis, metrics in
            let disk = DiskActivity(analysis)
            guard disk.wroteAnything else { return .notApplicable(Self.nothingLeft(disk)) }
            guard disk.sandboxFiles != nil else { return .unavailable("the sandbox was not scanned at the end of the run") }
            let files = disk.recreatableBackedUpFiles, unseen = disk.recreatableFilesOfUnseenExclusion
            if files.isEmpty && !unseen.isEmpty { return .unavailable(DiskActivity.unseenExclusionReason(unseen)) }
            let total = files.reduce(0) { $0 + ($1.bytesAtEnd ?? 0) }
            var evidence = files.prefix(20).map { file in
                guard let served = file.servedAs else {
                    return Evidence(description: "\(file.path): \(bytes(file.bytesAtEnd ?? 0)) of \(file.dataClass?.rawValue ?? "?") data, backed up in \(file.location.title)")
                }
                return Evidence(description: "\(file.path): \(bytes(file.bytesAtEnd ?? 0)), the body of \(served) byte for byte (downloaded verbatim: it can be downloaded again), backed up in \(file.location.title)")
            }
            for file in unseen.prefix(20) {
                evidence.append(Evidence(description: "\(file.path): \(bytes(file.bytesAtEnd ?? 0)) downloaded into Application Support, not counted: "
                                            + "whether it is excluded from backup cannot be seen on Linux (Foundation ignores isExcludedFromBackup there)"))
            }
            for file in disk.files where file.dataClass == .critical && file.backedUp == false && (file.bytesAtEnd ?? 0) > 0 {
                evidence.append(Evidence(description: "\(file.path): critical data that backups do not copy (\(file.location.title)\(file.exclusion.map { ", excluded by \($0.rawValue)" } ?? ""))"))
            }
            return .value(Double(total), display: "\(bytes(total)) of re-creatable data backed up (\(bytes(disk.backupBytes ?? 0)) backed up in all)",
                          evidence: evidence)
        },
        Audit("disk.clean-tmp") { analysis, metrics in
            let disk = DiskActivity(analysis)
            guard disk.wroteAnything else { return .notApplicable(Self.nothingLeft(disk)) }
            guard let files = disk.tmpFilesAtEnd else { return .unavailable("the sandbox was not scanned at the end of the run") }
            let total = files.reduce(0) { $0 + $1.bytes }
            let evidence = files.prefix(20).map { Evidence(description: "\($0.path): \(bytes($0.bytes)) left in tmp") }
            return .value(Double(total), display: "\(bytes(total)) left in tmp at the end", evidence: Array(evidence))
        },
    ]

    /// Not applicable: the kernel saw no file written in the sandbox.
    static let nothingWritten = "no file in the sandbox was written (the kernel showed no file closed after writing or renamed into place)"

    /// Not applicable: nothing of the app's written, and what the platform wrote said.
    static func nothingWritten(_ kernel: KernelFileActivity) -> String {
        guard let platform = platformWrites(kernel) else { return nothingWritten }
        return "the app wrote no file of its own; \(platform), are the platform's"
    }

    /// `3 writes of PATH, Foundation's cookie store`, or nil when the platform wrote nothing.
    static func platformWrites(_ kernel: KernelFileActivity) -> String? {
        guard let first = kernel.platformWrites.first else { return nil }
        let count = kernel.platformWrites.count
        return "\(count) write\(count == 1 ? "" : "s") of \(first.path), Foundation's cookie store"
    }
    /// Not applicable without the kernel's view (a record made before the harness watched the
    /// sandbox, or one where inotify failed): nothing in FrugalKit's journal either.
    static let nothingJournaled = "the app wrote nothing through FrugalKit"

    /// Not applicable: nothing written and nothing left. Without the kernel's view the journal
    /// and the end-of-run scan are all there is, and the reason says so as it always has.
    static func nothingLeft(_ disk: DiskActivity) -> String {
        disk.kernel == nil ? nothingJournaled : "the app wrote no file and left none in its sandbox"
    }

    /// The platform's own files written in the run (``KernelFileActivity/isPlatformStore(_:)``), not counted.
    static func platformDetail(_ kernel: KernelFileActivity) -> [Evidence] {
        guard let platform = platformWrites(kernel) else { return [] }
        return [Evidence(description: "\(platform), rewritten whenever a response sets a lasting cookie: the platform's, not counted")]
    }

    /// FrugalKit's journal as detail beside the kernel's view: where in the app's source the writes were made.
    static func journalDetail(_ disk: DiskActivity, _ analysis: RunAnalysis) -> [Evidence] {
        let writes = disk.contentWrites
        guard !writes.isEmpty else { return [] }
        var sites: [String: Int] = [:]
        for write in writes { sites[write.callSite, default: 0] += 1 }
        let listed = sites.sorted { $0.value > $1.value }.prefix(5).map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")
        return [Evidence(description: "FrugalKit's journal (detail): \(writes.count) write\(writes.count == 1 ? "" : "s") through FileStore, \(bytes(disk.logicalBytesWritten)), from \(listed)")]
    }

    /// `3× (12 KiB written for 4 KiB changed)`; when a write changed no block and was counted as
    /// the one block it stored (``DiskActivity/leastStored(written:changed:blockSize:)``), says so.
    static func amplificationDisplay(_ value: Double, _ amplification: (written: Int, changed: Int), floored: Bool) -> String {
        "\(DisplayFormat.number(value))× (\(bytes(amplification.written)) written for \(bytes(amplification.changed)) changed"
            + (floored ? ", a write that changed nothing counted as one block" : "") + ")"
    }

    /// Says when the kernel's queue overflowed: the counts are then lower bounds.
    static func overflowDetail(_ kernel: KernelFileActivity) -> [Evidence] {
        kernel.overflows == 0 ? [] : [Evidence(description: "the kernel's event queue overflowed \(kernel.overflows) time\(kernel.overflows == 1 ? "" : "s"): writes were missed, so these counts are lower bounds")]
    }

    /// Bytes as a person reads them (`4 MiB`, `12 KiB`, `310 B`).
    static func bytes(_ count: Int) -> String {
        let value = Double(count)
        if abs(value) >= 1_073_741_824 { return DisplayFormat.number(value / 1_073_741_824) + " GiB" }
        if abs(value) >= 1_048_576 { return DisplayFormat.number(value / 1_048_576) + " MiB" }
        if abs(value) >= 1024 { return DisplayFormat.number(value / 1024) + " KiB" }
        return "\(count) B"
    }
}
