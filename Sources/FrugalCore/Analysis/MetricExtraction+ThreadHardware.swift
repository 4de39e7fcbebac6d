extension MetricExtraction {
    /// The main thread's hardware counts in its handlers, summed (FrugalKit apps count them
    /// inside the app through PAPI on that thread), or each unavailable with the reason: a
    /// black-box program has nothing inside it counting a thread; an app on a machine without a
    /// PMU has PAPI's reason in its hello.
    @Sendable static func mainThreadHardwareMetrics(_ analysis: RunAnalysis, _ metrics: inout [String: MetricValue]) {
        let counted = analysis.handlers.filter { $0.hardware != nil }
        // Uncounted, the source is the events that were asked for, not the software set that counted.
        let counterSource = counted.first?.counterSource ?? ("papi:" + HardwareCounterReading.papiThreadEvents.joined(separator: "+"))
        let source = Source.kitThreadHardware(counterSource)
        guard !analysis.record.blackBox else {
            putHardware(nil, names: .mainThread, source: source,
                        missing: "a black-box program's threads are not counted from inside; its whole run's counts are cpu.instructions and its kin",
                        into: &metrics)
            return
        }
        guard !counted.isEmpty else {
            putHardware(nil, names: .mainThread, source: source, missing: mainThreadHardwareMissing(analysis), into: &metrics)
            return
        }
        let total = counted.dropFirst().reduce(counted[0].hardware!) { $0.adding($1.hardware!) }
        putHardware(total, names: .mainThread, source: source, missing: "no handler carried hardware counts", into: &metrics)
    }

    /// Why no handler carried hardware counts: the hello's unavailable hardware events (PAPI's
    /// reason, e.g. no PMU), or what else is known.
    static func mainThreadHardwareMissing(_ analysis: RunAnalysis) -> String {
        let hardware = analysis.counters.filter { $0.source == "papi" && HardwareCounterReading.papiThreadEvents.contains($0.name) }
        if let failed = hardware.first(where: { !$0.available }) {
            return "the main thread's hardware counters are unavailable: \(failed.reason ?? "PAPI could not add \(failed.name)")"
        }
        if analysis.handlers.isEmpty { return "the app ran no handler" }
        if let source = analysis.handlers.first?.counterSource, !source.hasPrefix("papi:") {
            return "the app counted with \(source), which has no hardware counters"
        }
        return "the app's runtime reported no hardware counts (built before FrugalKit counted them, or hardware events were not asked for)"
    }
}

