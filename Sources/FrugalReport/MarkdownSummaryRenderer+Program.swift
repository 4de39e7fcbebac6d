import FrugalCore

extension MarkdownSummaryRenderer {
    /// A black-box program's main thread as the harness judged it (the thread that runs its main
    /// queue or run loop), once per workload and scenario: the first run's judgement, and how many
    /// runs judged otherwise.
    static func mainThreadJudged(_ report: Report, _ result: WorkloadResult) -> [String] {
        let judged = report.runs.filter { $0.workload == result.workload && $0.scenario == result.scenario }
            .compactMap { $0.processes?.mainThread }
        guard let first = judged.first else { return [] }
        // Thread ids differ between runs; the evidence is what a reader compares.
        let other = judged.dropFirst().filter { $0.drop { $0 != ":" } != first.drop { $0 != ":" } }.count
        return ["", "Main thread judged (run 1): \(cell(first))" + (other > 0 ? " (\(other) other run\(other == 1 ? "" : "s") judged otherwise; report.json: runs[].processes.mainThread)" : "")]
    }
}
