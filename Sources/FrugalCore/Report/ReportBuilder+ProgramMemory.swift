/// `memory.respond-to-warnings` for a black-box program: judged on its own memory after the
/// configured warning signal, from the `smaps_rollup` samples the harness takes around each
/// delivery (at the signal, 100 ms and 1 s after). A program declares nothing reclaimable, so
/// what it could free is what it held above the least it held before the warning (its launch
/// footprint, or what it kept after an earlier warning), in anonymous memory (pages the kernel
/// cannot drop without swap; file pages it can); the measure is the fraction of that still held
/// 1 s after the signal, the worst warning. Under 4 MiB above that footprint there is little to
/// free (`Audits.minimumFreeableBytes`, as `memory.free-on-background`): not applicable.
extension ReportBuilder {
    static let programWarningAudit = Audit("memory.respond-to-warnings") { analysis, _ in programWarningMeasure(analysis) }

    static func programWarningMeasure(_ analysis: RunAnalysis) -> AuditMeasurement {
        let record = analysis.record
        let deliveries = (record.memory?.deliveries ?? []).filter { $0.level != .normal }
        guard !deliveries.isEmpty else {
            if let problem = record.steps.first(where: { $0.step.name == "memoryWarning" && $0.problem != nil })?.problem {
                return .notApplicable(problem)
            }
            return .notApplicable("the scenario sent the program no warning or critical memory warning (a memoryWarning or pressure step, with memoryWarningSignal set)")
        }
        let samples = record.samples.filter { $0.memory != nil }
        var worst: Double?
        var evidence: [Evidence] = []
        for delivery in deliveries.sorted(by: { $0.time < $1.time }) {
            let time = analysis.runTime(delivery.time)
            let label = "\(delivery.level.rawValue) (\(delivery.origin))"
            guard let at = delivery.atDelivery?.anonymousBytes, let after = delivery.after1s?.anonymousBytes else {
                evidence.append(Evidence(time: time, description: "\(label): not measured, the process was gone before the 1 s sample"))
                continue
            }
            let footprint = min(at, samples.filter { $0.time < delivery.time }.compactMap { $0.memory?.anonymousBytes }.min() ?? at)
            let above = at - footprint
            var text = "\(label): \(ByteCount.display(Double(at))) anonymous at the signal (\(ByteCount.display(Double(above))) above the least held before it, \(ByteCount.display(Double(footprint)))), "
                + (delivery.after100ms.map { "\(ByteCount.display(Double($0.anonymousBytes))) after 100 ms, " } ?? "")
                + "\(ByteCount.display(Double(after))) after 1 s"
            if above < Audits.minimumFreeableBytes {
                evidence.append(Evidence(time: time, description: text + ": little to free"))
                continue
            }
            let fraction = min(1, max(0, Double(after - footprint) / Double(above)))
            worst = max(worst ?? 0, fraction)
            text += "; \(DisplayFormat.number(fraction * 100))% still held"
            evidence.append(Evidence(time: time, description: text))
        }
        guard let worst else {
            if record.memory?.killedByOOM == true {
                return .value(1, display: "killed by the OOM killer before freeing anything", evidence: evidence)
            }
            let measured = evidence.contains { $0.description.hasSuffix("little to free") }
            let reasons = evidence.map(\.description).joined(separator: "; ")
            return measured
                ? .notApplicable("little to free: the program held less than \(ByteCount.display(Double(Audits.minimumFreeableBytes))) of anonymous memory above its footprint at each warning (\(reasons))")
                : .unavailable("no warning could be measured: " + reasons)
        }
        return .value(worst, display: "\(DisplayFormat.number(worst * 100))% of what it held above its footprint still held 1 s after the warning signal (anonymous memory, from outside)",
                      evidence: evidence)
    }
}
