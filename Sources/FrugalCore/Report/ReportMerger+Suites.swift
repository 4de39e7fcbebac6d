/// Reports that are no shards (`frugal run` without `--shard`) carry no suite fingerprint: their
/// suite is what they ran, the set of workload and scenario pairs. Two runs of one suite pool
/// their repetitions; reports of different suites once merged without a word (issue 24).
extension ReportMerger {
    /// The first pair of `reports` (each no shard) that ran different suites, said in one line
    /// naming both files and what each ran that the other did not; nil when all ran one suite.
    static func differentSuites(_ reports: [Report], names: [String]) -> String? {
        guard let first = reports.first else { return nil }
        func suite(_ report: Report) -> Set<ResultKey> { Set(report.runs.map(\.resultKey)) }
        let base = suite(first)
        for index in reports.indices.dropFirst() {
            let other = suite(reports[index])
            guard other != base else { continue }
            func listed(_ keys: Set<ResultKey>) -> String {
                let sorted = keys.sorted()
                let shown = sorted.prefix(3).map { "\($0)" }.joined(separator: ", ")
                return sorted.count > 3 ? "\(shown) and \(sorted.count - 3) more" : shown
            }
            let onlyFirst = base.subtracting(other), onlyOther = other.subtracting(base)
            var parts: [String] = []
            if !onlyFirst.isEmpty { parts.append("only \(names[0]) ran \(listed(onlyFirst))") }
            if !onlyOther.isEmpty { parts.append("only \(names[index]) ran \(listed(onlyOther))") }
            return "\(names[0]) and \(names[index]) are reports of different suites (\(parts.joined(separator: "; ")))"
        }
        return nil
    }
}
