/// Joins reports of the same suite run in pieces (`frugal run --shard I/N`, on one machine or
/// several) into one report, aggregated as if it had been one run. Pure.
public enum ReportMerger {
    /// A set of reports that cannot be joined.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The joined report and what a reader should know about it (missing shards, pooled runs).
    /// `names` label the reports in messages (their paths). Reports that are no shards and ran
    /// different suites (other workloads or scenarios) are refused unless `allowDifferentSuites`,
    /// which merges them with a warning naming both.
    public static func merge(_ reports: [Report], names: [String],
                             allowDifferentSuites: Bool = false) throws -> (report: Report, warnings: [String]) {
        guard let first = reports.first else { throw Failure(description: "nothing to merge") }
        let names = reports.indices.map { $0 < names.count ? names[$0] : "report \($0 + 1)" }
        var warnings: [String] = []
        let shards = reports.compactMap(\.shard)
        if shards.isEmpty, let mismatch = differentSuites(reports, names: names) {
            guard allowDifferentSuites else {
                throw Failure(description: mismatch + "; merge the reports of one suite, or give --allow-different-suites")
            }
            warnings.append(mismatch + "; merged as asked (--allow-different-suites)")
        }
        if !shards.isEmpty {
            guard shards.count == reports.count else {
                let unsharded = reports.indices.filter { reports[$0].shard == nil }.map { names[$0] }
                throw Failure(description: "\(unsharded.joined(separator: ", ")) is not a shard but the others are; merge shards of one suite")
            }
            let counts = Set(shards.map(\.count))
            guard counts.count == 1, let count = counts.first else {
                throw Failure(description: "the shards split the suite different ways (\(counts.sorted().map { "/\($0)" }.joined(separator: ", ")))")
            }
            let suites = Dictionary(grouping: reports.indices.filter { reports[$0].shard?.suite != nil }) { reports[$0].shard!.suite! }
            if suites.count > 1 {
                let example = suites.values.map { names[$0[0]] }.sorted()
                throw Failure(description: "\(example.joined(separator: " and ")) are shards of different suites (their workloads, scenarios or repetitions differ); merge the shards of one frugal run")
            }
            var seen: [Int: String] = [:]
            for (index, shard) in zip(reports.indices, shards) {
                if let other = seen[shard.index] {
                    throw Failure(description: "\(names[index]) and \(other) are both shard \(shard.index)/\(count)")
                }
                seen[shard.index] = names[index]
            }
            let missing = (1...count).filter { seen[$0] == nil }
            if !missing.isEmpty {
                warnings.append("shard\(missing.count == 1 ? "" : "s") \(missing.map { "\($0)/\(count)" }.joined(separator: ", ")) missing: the merged report holds part of the suite")
            }
        }
        if Set(reports.map(\.tool.version)).count > 1 {
            warnings.append("the reports were made by different frugal versions (\(Set(reports.map(\.tool.version)).sorted().joined(separator: ", ")))")
        }

        // Machines: one environment when every report ran on the same one; otherwise the first
        // is `environment`, the others are kept beside it and each run names its machine.
        var machines: [EnvironmentInfo] = []
        for environment in reports.flatMap(\.environments)
        where !machines.contains(where: { $0.machineDifferences(from: environment).isEmpty }) {
            machines.append(environment)
        }
        var environment = first.environment
        for other in reports.dropFirst().flatMap(\.environments) where other.machineDifferences(from: environment).isEmpty {
            for note in other.notes where !environment.notes.contains(note) { environment.notes.append(note) }
        }
        let several = machines.count > 1

        // Runs, grouped by workload and scenario in first-seen order; a group found in several
        // reports is pooled and its repetitions numbered again.
        var order: [ResultKey] = []
        var groups: [ResultKey: [RunReport]] = [:]
        var origin: [ResultKey: Set<Int>] = [:]
        for (index, report) in reports.enumerated() {
            for var run in report.runs {
                if several && run.machine == nil { run.machine = report.environment.hostname }
                let key = run.resultKey
                if groups[key] == nil { order.append(key) }
                groups[key, default: []].append(run)
                origin[key, default: []].insert(index)
            }
        }
        var runs: [RunReport] = []
        for key in order {
            let group = groups[key] ?? []
            if let sources = origin[key], sources.count > 1 {
                warnings.append("\(key) is in \(sources.sorted().map { names[$0] }.joined(separator: " and ")): its \(group.count) runs are pooled")
                runs += group.enumerated().map { offset, run in
                    var run = run
                    run.repetition = offset + 1
                    return run
                }
            } else {
                runs += group
            }
        }
        let generatedAt = reports.map(\.generatedAt).min() ?? first.generatedAt
        var merged = Report(tool: first.tool, generatedAt: generatedAt, environment: environment, runs: runs,
                            results: ReportBuilder.aggregate(runs))
        if several { merged.otherEnvironments = Array(machines.dropFirst()) }
        return (merged, warnings)
    }
}
