extension MetricExtraction.Source {
    public static let procWchar = "proc:io.wchar"
    public static let procSyscw = "proc:io.syscw"
    public static let kitJournal = "kit:journal"
    public static let kitJournalBlockDiff = "kit:journal.block-diff"
    public static let harnessEventStream = "harness:event-stream"
    public static let journalGap = "proc:io.wchar-harness:event-stream-kit:journal"
    public static let sandboxScan = "harness:sandbox-scan"
}

extension MetricExtraction {
    /// The disk area's metrics: the app's own journal, the process's `/proc/<pid>/io` read from
    /// outside (final totals at exit), and the sandbox as the harness found it at the end.
    @Sendable static func diskMetrics(_ analysis: RunAnalysis, _ metrics: inout [String: MetricValue]) {
        let record = analysis.record
        let disk = DiskActivity(analysis)
        let io = finalIO(record)

        metrics[MetricName.diskPhysicalBytesWritten] = io.physical.map { MetricValue(Double($0), unit: "bytes", source: Source.procWriteBytes) }
            ?? .unavailable(unit: "bytes", source: Source.procWriteBytes, reason: "/proc/<pid>/io could not be read")
        metrics[MetricName.diskSyscallBytesWritten] = io.wchar.map { MetricValue(Double($0), unit: "bytes", source: Source.procWchar) }
            ?? .unavailable(unit: "bytes", source: Source.procWchar, reason: "/proc/<pid>/io could not be read")
        metrics[MetricName.diskWriteSyscalls] = io.syscw.map { MetricValue(Double($0), unit: "count", source: Source.procSyscw) }
            ?? .unavailable(unit: "count", source: Source.procSyscw, reason: "/proc/<pid>/io could not be read")

        let days = analysis.wallSeconds / 86_400
        // The kernel's view (inotify on the sandbox, block diffs) for any process; FrugalKit's
        // journal, below, only where the sandbox was not watched.
        defer { kernelMetrics(disk, &metrics) }
        if record.blackBox {
            let reason = "a black-box command has no FrugalKit write journal"
            for (name, unit, source) in [(MetricName.diskLogicalBytesWritten, "bytes", Source.kitJournal),
                                         (MetricName.diskWriteOps, "count", Source.kitJournal),
                                         (MetricName.diskFsyncs, "count", Source.kitJournal),
                                         (MetricName.diskUnjournaledBytesWritten, "bytes", Source.journalGap)] {
                metrics[name] = .unavailable(unit: unit, source: source, reason: reason)
            }
            // What reached storage (write_bytes), not wchar, which counts socket and pipe writes too;
            // the kernel's exit records replace it with the whole process tree's (programMetrics).
            metrics[MetricName.diskBytesWrittenPerDay] = io.physical.flatMap { physical in
                days > 0 ? MetricValue(perDay(Double(physical), days: days), unit: "bytes/day", source: Source.procWriteBytes) : nil
            } ?? .unavailable(unit: "bytes/day", source: Source.procWriteBytes, reason: "no write_bytes or no run time")
            return
        }

        let logical = disk.logicalBytesWritten
        metrics[MetricName.diskLogicalBytesWritten] = MetricValue(Double(logical), unit: "bytes", source: Source.kitJournal)
        metrics[MetricName.diskWriteOps] = MetricValue(Double(disk.writeOperations), unit: "count", source: Source.kitJournal)
        metrics[MetricName.diskFsyncs] = MetricValue(Double(disk.fsyncs), unit: "count", source: Source.kitJournal)
        metrics[MetricName.diskWriteOpsBusiestMinute] = MetricValue(Double(disk.busiestWindow().count), unit: "count", source: Source.kitJournal)
        metrics[MetricName.diskCacheBytesWritten] = MetricValue(Double(disk.cacheWritesOutsideTermination.reduce(0) { $0 + $1.length }),
                                                                unit: "bytes", source: Source.kitJournal)
        if let events = record.eventStreamBytes {
            metrics[MetricName.diskEventStreamBytes] = MetricValue(Double(events), unit: "bytes", source: Source.harnessEventStream)
        } else {
            metrics[MetricName.diskEventStreamBytes] = .unavailable(unit: "bytes", source: Source.harnessEventStream, reason: "the harness did not count the event stream")
        }
        let gap = unjournaledBytes(wchar: io.wchar, eventStream: record.eventStreamBytes, journal: logical)
        metrics[MetricName.diskUnjournaledBytesWritten] = gap.map { MetricValue(Double($0), unit: "bytes", source: Source.journalGap) }
            ?? .unavailable(unit: "bytes", source: Source.journalGap, reason: "wchar or the event stream's size is missing")
        // The budget counts every file byte the process wrote after launch; launch work is counted
        // once, not as a rate. Where the sandbox was watched, the kernel's view is that count, any
        // API, with times: wchar also counts socket, pipe and eventfd writes, and an app whose
        // 1.5 MB URLSession download woke libdispatch 245,000 times (eventfd pokes) and sent its
        // request over TLS read "4.43 MiB written after launch" for 12 bytes of state on disk.
        // Without it, the journal's bytes and what bypassed it by wchar (whole: its time is unknown).
        let window = writeBudgetWindow(analysis)
        if let kernel = disk.kernel, window.days > 0 {
            let launchEnd = record.startTime + (analysis.launchNanoseconds ?? 0)
            metrics[MetricName.diskBytesWrittenPerDay] = MetricValue(perDay(Double(kernel.bytesWritten(since: launchEnd)), days: window.days),
                                                                     unit: "bytes/day", source: FileChangeLog.source)
        } else {
            let total = window.bytesAfterLaunch + max(0, gap ?? 0)
            metrics[MetricName.diskBytesWrittenPerDay] = window.days > 0
                ? MetricValue(perDay(Double(total), days: window.days), unit: "bytes/day", source: gap == nil ? Source.kitJournal : Source.kitJournal + "+" + Source.journalGap)
                : .unavailable(unit: "bytes/day", source: Source.kitJournal, reason: "the run had no duration after launch")
        }
        if let amplification = disk.amplification {
            metrics[MetricName.diskWriteAmplification] = MetricValue(Double(amplification.written) / Double(max(1, amplification.changed)),
                                                                     unit: "×", source: Source.kitJournalBlockDiff)
        } else {
            metrics[MetricName.diskWriteAmplification] = .unavailable(unit: "×", source: Source.kitJournalBlockDiff,
                                                                      reason: "no write modified a file that already existed")
        }
        if let backup = disk.backupBytes, let tmp = disk.tmpFilesAtEnd {
            metrics[MetricName.diskBackupBytes] = MetricValue(Double(backup), unit: "bytes", source: Source.sandboxScan)
            metrics[MetricName.diskTmpBytesAtEnd] = MetricValue(Double(tmp.reduce(0) { $0 + $1.bytes }), unit: "bytes", source: Source.sandboxScan)
            let known = disk.recreatableBackedUpFiles, unseen = disk.recreatableFilesOfUnseenExclusion
            metrics[MetricName.diskRecreatableBackupBytes] = known.isEmpty && !unseen.isEmpty
                ? .unavailable(unit: "bytes", source: Source.sandboxScan + "+" + Source.kitJournal, reason: DiskActivity.unseenExclusionReason(unseen))
                : MetricValue(Double(known.reduce(0) { $0 + ($1.bytesAtEnd ?? 0) }), unit: "bytes", source: Source.sandboxScan + "+" + Source.kitJournal)
        } else {
            let reason = "the sandbox was not scanned at the end of the run"
            metrics[MetricName.diskBackupBytes] = .unavailable(unit: "bytes", source: Source.sandboxScan, reason: reason)
            metrics[MetricName.diskTmpBytesAtEnd] = .unavailable(unit: "bytes", source: Source.sandboxScan, reason: reason)
            metrics[MetricName.diskRecreatableBackupBytes] = .unavailable(unit: "bytes", source: Source.sandboxScan, reason: reason)
        }
    }

    /// The write counts and amplification from the kernel's view, when the sandbox was watched:
    /// they replace the journal's, which sees only FrugalKit's writes.
    static func kernelMetrics(_ disk: DiskActivity, _ metrics: inout [String: MetricValue]) {
        guard let kernel = disk.kernel else { return }
        let source = FileChangeLog.source
        metrics[MetricName.diskWriteOpsBusiestMinute] = MetricValue(Double(kernel.busiestWindow().count), unit: "count", source: source)
        if let cache = disk.kernelCacheWritesOutsideTermination() {
            metrics[MetricName.diskCacheBytesWritten] = MetricValue(Double(cache.reduce(0) { $0 + $1.bytesWritten }), unit: "bytes", source: source)
        }
        if let amplification = kernel.amplification {
            metrics[MetricName.diskWriteAmplification] = MetricValue(Double(amplification.written) / Double(max(1, amplification.changed)),
                                                                     unit: "×", source: source)
        } else {
            metrics[MetricName.diskWriteAmplification] = .unavailable(unit: "×", source: source, reason: "no write modified a file that already existed")
        }
    }

    /// Bytes per day for `bytes` written in `days`: scaled to a day only when the run lasted a
    /// day or more. A shorter run is scored on what it wrote, a lower bound on its day: seconds
    /// of a scenario (one export, four downloads) say nothing about how often they recur.
    public static func perDay(_ bytes: Double, days: Double) -> Double {
        bytes / max(days, 1)
    }

    /// The write budget's window: from the first event handled (launch) to the run's end, and
    /// the journal's bytes written in it.
    static func writeBudgetWindow(_ analysis: RunAnalysis) -> (bytesAfterLaunch: Int, days: Double) {
        let launchEnd = analysis.record.startTime + (analysis.launchNanoseconds ?? 0)
        let bytes = DiskActivity(analysis).contentWrites.filter { $0.start >= launchEnd }.reduce(0) { $0 + $1.length }
        let seconds = Double(analysis.record.endTime &- launchEnd) / 1e9
        return (bytes, max(0, seconds) / 86_400)
    }

    /// The final `/proc/<pid>/io` totals: read at exit when the harness could, else the last sample.
    static func finalIO(_ record: RunRecord) -> (physical: Int?, wchar: Int?, syscw: Int?) {
        if let io = record.finalIO { return (io.physicalBytesWritten, io.charactersWritten, io.writeSyscalls) }
        return (record.samples.last { $0.physicalBytesWritten != nil }?.physicalBytesWritten,
                record.samples.last { $0.charactersWritten != nil }?.charactersWritten,
                record.samples.last { $0.writeSyscalls != nil }?.writeSyscalls)
    }

    /// `wchar` counts every write call, the event pipe's included: what is left after the event
    /// stream and the journal is what the app wrote around FrugalKit.
    public static func unjournaledBytes(wchar: Int?, eventStream: Int?, journal: Int) -> Int? {
        guard let wchar, let eventStream else { return nil }
        return wchar - eventStream - journal
    }
}
