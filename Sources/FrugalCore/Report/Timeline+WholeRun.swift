/// The activity lane over the whole run: what no pair of samples saw (before the first sample,
/// after the last, processes that lived between two samples) is added at the ends from the
/// run's totals, so the lane adds up to `cpu.wakeups` and `cpu.timeSeconds`.
extension Timeline {
    /// The lane's first interval (exec to the first sample: the first sample's own counts) and its
    /// last (the last sample to the run's end: the totals' remainder), when totals exist.
    static func wholeRunEnds(_ analysis: RunAnalysis, between: [ActivitySample],
                             totals: (wakeups: Int, cpuSeconds: Double)?) -> (head: ActivitySample?, tail: ActivitySample?) {
        let record = analysis.record
        guard let first = record.samples.first, let last = record.samples.last else { return (nil, nil) }
        let head = ActivitySample(time: analysis.runTime(first.time), interval: Double(first.time &- record.startTime) / 1e9,
                                  wakeups: max(0, first.voluntaryContextSwitches - (record.processes?.first?.voluntarySwitchesBeforeExec ?? 0)),
                                  cpuSeconds: Double(first.onCPUNanoseconds) / 1e9,
                                  residentBytes: first.residentBytes)
        guard let totals else { return (head, nil) }
        let seenWakeups = head.wakeups + between.reduce(0) { $0 + $1.wakeups }
        let seenCPU = head.cpuSeconds + between.reduce(0) { $0 + $1.cpuSeconds }
        let tail = ActivitySample(time: analysis.runTime(record.endTime), interval: Double(record.endTime &- last.time) / 1e9,
                                  wakeups: max(0, totals.wakeups - seenWakeups), cpuSeconds: max(0, totals.cpuSeconds - seenCPU),
                                  residentBytes: nil)
        return (head, tail)
    }

    /// The run's totals the lane must add up to: the kernel's exit records of the whole tree, else
    /// `wait4`'s; less the spawned processes' switches before their exec (`cpu.wakeups` as well).
    static func activityTotals(_ record: RunRecord) -> (wakeups: Int, cpuSeconds: Double)? {
        let setup = MetricExtraction.switchesBeforeExec(record)
        if let exits = record.containment?.taskExits {
            return (max(0, exits.reduce(0) { $0 + $1.voluntarySwitches } - setup),
                    record.containment?.cgroupCPUSeconds ?? exits.reduce(0) { $0 + $1.cpuSeconds })
        }
        if let usage = record.resourceUsage { return (max(0, usage.voluntaryContextSwitches - setup), usage.userSeconds + usage.systemSeconds) }
        return nil
    }
}

extension Timeline {
    /// A black-box program's hangs seen from outside, in the hangs lane: what the thread did
    /// (`busy`, `blocked`, `uninterruptible`) and the kernel's view of where it waited. The ones
    /// `main.no-long-blocks` counts: a stretch while the program was starting up is launch
    /// (`RunAnalysis.programHangs`), listed in the audit's evidence, not marked as a hang.
    static func outsideHangMarks(_ analysis: RunAnalysis) -> [HangMark] {
        analysis.programHangs.judged.map { hang in
            let place = [hang.wchan.map { "wchan \($0)" }, hang.syscall.map { "syscall \($0)" }].compactMap { $0 }
            return HangMark(handler: "main thread \(hang.kind) (seen from outside)", start: analysis.runTime(hang.start),
                            durationMs: hang.milliseconds, stack: place.isEmpty ? nil : place)
        }
    }
}
