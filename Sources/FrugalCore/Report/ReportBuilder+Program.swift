/// Which audits judge a black-box program: those whose number the harness measures from outside
/// (idle wakeups, listening sockets while frozen, background CPU, the OOM killer, block writes,
/// the files written in the sandbox, traffic through the proxy). Every other audit is "not applicable" with the reason.
extension ReportBuilder {
    /// The audits a black-box run can be judged on, when its scenario gives them something to judge.
    public static let programAudits: Set<String> = [
        "power.avoid-polling", "lifecycle.close-listeners", "lifecycle.minimal-background-work", "memory.survive-pressure",
        "disk.write-budget", "disk.clean-tmp", "network.transmit-in-bursts", "network.no-server-polling",
        "network.compact-transfers", "network.avoid-chatty-protocols", "network.enqueue-together", "main.no-long-blocks",
        "memory.respond-to-warnings", "memory.map-large-resources",
        // From the kernel's view of the sandbox's files (inotify, block diffs), as for any app.
        "disk.avoid-frequent-writes", "disk.write-changed-portions", "disk.backup-placement",
    ]

    /// Why an audit outside `programAudits` does not apply to a black-box program.
    static func programNotApplicableReason(_ id: String) -> String {
        if id == "memory.lazy-resources" {
            return "a program is sent no input, so what it read before it was asked for anything cannot be told from what its job needed (its copies of large resource files are judged by memory.map-large-resources)"
        }
        if id.hasPrefix("memory.") { return "needs the app's memory warnings, caches or resources (FrugalKit); a black-box program reports none" }
        if id.hasPrefix("disk.") { return "needs FrugalKit's write journal (which data the app declared cache); a black-box program declares none" }
        if id.hasPrefix("network.") { return "needs the app's operations and retries (FrugalKit's network client): the wire shows requests, not which ones retry an operation" }
        if id.hasPrefix("lifecycle.") { return "needs the app's lifecycle callbacks (FrugalKit); a black-box program is only frozen and signalled" }
        if id.hasPrefix("main.") { return "needs the app's event-handler boundaries" }
        return "needs FrugalKit's events; a black-box program reports none"
    }

    /// A black-box run's audits: the applicable ones evaluated as for an app, the rest not applicable.
    static func blackBoxAudits(_ analysis: RunAnalysis, metrics: [String: MetricValue]) -> [String: AuditResult] {
        var results = Audits.evaluate(analysis, metrics: metrics)
        for (id, result) in results where !programAudits.contains(id) {
            results[id] = result.markedNotApplicable(reason: "a black-box program: " + programNotApplicableReason(id))
        }
        // The app's measure needs its handler's ledger of what was reclaimable; a program's is its
        // memory after the configured signal, from outside (ReportBuilder+ProgramMemory).
        results["memory.respond-to-warnings"] = programWarningAudit.evaluate(analysis, metrics: metrics)
        if var blocks = results["main.no-long-blocks"], blocks.scoreDisplayMode != .notApplicable {
            // The app's measure (blocked ms per minute) needs handlers; a program's is its hangs seen from outside.
            blocks = programLongBlocks(analysis, metrics: metrics, template: blocks)
            results["main.no-long-blocks"] = blocks
        }
        return results
    }

    /// `main.no-long-blocks` for a program: pass when no hang was seen from outside, fail with the
    /// hangs (and where the kernel saw the thread wait) as evidence.
    static func programLongBlocks(_ analysis: RunAnalysis, metrics: [String: MetricValue], template: AuditResult) -> AuditResult {
        var result = template
        guard let watch = analysis.record.outsideWatch, let hangs = metrics[MetricName.mainThreadHangs]?.value else {
            result.score = nil
            result.scoreDisplayMode = .unavailable
            result.numericValue = nil
            result.displayValue = "unavailable"
            result.explanation = metrics[MetricName.mainThreadHangs]?.unavailable ?? "the main thread was not watched"
            return result
        }
        result.scoreDisplayMode = .binary
        result.score = hangs == 0 ? 1 : 0
        result.numericValue = hangs
        result.numericUnit = "count"
        result.displayValue = "\(Int(hangs)) hang\(hangs == 1 ? "" : "s") of the main thread seen from outside (≥ \(DisplayFormat.number(Thresholds.hangMilliseconds)) ms)"
        let split = analysis.programHangs
        func describe(_ hang: OutsideHang) -> String {
            let place = [hang.wchan.map { "in \($0)" }, hang.syscall.map { "syscall \($0)" }].compactMap { $0 }.joined(separator: ", ")
            return "\(hang.kind): \(DisplayFormat.number(hang.milliseconds)) ms without a voluntary switch" + (place.isEmpty ? "" : " (the kernel: \(place))")
        }
        result.evidence = split.judged.prefix(20).map { hang in
            Evidence(time: analysis.runTime(hang.start), durationMs: hang.milliseconds, description: describe(hang))
        }
        // Shown, not counted: the program loading before it handled any event (`programHangs`).
        result.evidence += split.startingUp.prefix(5).map { hang in
            Evidence(time: analysis.runTime(hang.start), durationMs: hang.milliseconds,
                     description: "start-up, not a hang: " + describe(hang) + ", before the program's first sustained wait, within the guide's \(DisplayFormat.number(Thresholds.launchWatchdogSeconds)) s to launch and \"start handling events\"")
        }
        if let wait = watch.longestWait {
            let place = [wait.wchan.map { "in \($0)" }, wait.syscall.map { "syscall \($0)" }].compactMap { $0 }.joined(separator: ", ")
            result.evidence.append(Evidence(time: analysis.runTime(wait.start), durationMs: wait.milliseconds,
                                            description: "longest off-CPU wait: \(DisplayFormat.number(wait.milliseconds)) ms in one blocking call"
                                                + (place.isEmpty ? "" : " (the kernel: \(place))") + "; waiting is not a hang unless an answer was expected"))
        }
        if let judged = watch.mainThreads.flatMap(MainThreadChoice.summary) {
            result.evidence.append(Evidence(description: "main thread judged: " + judged))
        }
        result.explanation = watch.unreadable.isEmpty ? nil
            : "this machine hid \(watch.unreadable.joined(separator: " and ")) of the thread, so where it waited is partly unknown"
        return result
    }
}
