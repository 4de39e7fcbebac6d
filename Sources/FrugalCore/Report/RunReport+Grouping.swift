extension RunReport {
    /// The runs of each workload and scenario, groups in first-seen order and runs in their own:
    /// the repetitions that one result (median, baseline entry, noise) is made from.
    public static func groupedByResult(_ runs: [RunReport]) -> [[RunReport]] {
        var order: [ResultKey] = []
        var groups: [ResultKey: [RunReport]] = [:]
        for run in runs {
            let key = run.resultKey
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(run)
        }
        return order.compactMap { groups[$0] }
    }
}
