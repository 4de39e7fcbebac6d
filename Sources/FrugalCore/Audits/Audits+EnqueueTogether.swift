extension Audits {
    /// `network.enqueue-together`: the guide's "enqueue those items together rather than waiting
    /// for one to finish before starting the next one", read from the wire. Of each batch (first
    /// attempts that did not fail, of every client as the origin read them, with FrugalKit's
    /// client's times where it made them; each starting within ARO's 1.5 s burst silence of the
    /// batch so far, with no input step between), the transfers issued only after every earlier
    /// one had finished (``IssueOrder``); the worst batch. What issuing them at once would have
    /// saved (the batch's span against ``TransferBatch/issuedAtOnceSeconds``) is the evidence: on a
    /// link whose bandwidth bounds the batch, issuing together saves little time but the rule holds.
    static func enqueueTogether(_ analysis: RunAnalysis) -> AuditMeasurement {
        let network = NetworkAnalysis(analysis)
        guard let record = network.network else { return .unavailable("no shaping proxy ran for this run") }
        // How the app issues its items: each operation's first attempt, when it did not fail.
        // Retries and failed attempts belong to network.handle-failures.
        var seen: Set<String> = []
        let firstAttempts = network.attempts(analysis).filter { seen.insert($0.operation).inserted }
        let issued = firstAttempts.filter(\.completed)
        // A connection limit is known only for FrugalKit's client: its queue, not the app, holds a
        // transfer back once every connection is busy.
        let limit = issued.compactMap(\.connectionLimit).max()
        let batches = TransferBatch.group(issued.map(\.span), chunks: network.chunks, connectionLimit: limit,
                                          prompts: inputTimes(analysis)) { record.conditions(at: $0) }
        guard !batches.isEmpty else {
            return .notApplicable("no two requests ran within 1.5 s of each other with no input step between (no batch)")
        }
        let orders = batches.map { IssueOrder($0.transfers, connectionLimit: limit) }
        let worst = orders.indices.max { orders[$0].waited.count < orders[$1].waited.count }!
        let evidence = zip(batches, orders).sorted { $0.1.waited.count > $1.1.waited.count }.prefix(20).map { batch, order in
            let waited = order.waited.prefix(4).map(\.label).joined(separator: ", ") + (order.waited.count > 4 ? ", …" : "")
            return Evidence(time: batch.start, durationMs: batch.seconds * 1000,
                            description: "\(batch.transfers.count) transfers in \(DisplayFormat.number(batch.seconds * 1000)) ms, "
                                + "in flight together by waves of \(order.waveSizes.prefix(12).map(String.init).joined(separator: ", "))\(order.waveSizes.count > 12 ? ", …" : ""); "
                                + (order.waited.isEmpty ? "none waited for the one before to finish"
                                    : "\(order.waited.count) issued only after the one before had finished (\(waited))")
                                + (order.followedLinks.isEmpty ? "" : "; \(order.followedLinks.count) followed a link the answer before it held, which could not be asked for sooner (\(order.followedLinks.prefix(4).map { "\($0.label) named by \($0.namedBy ?? "")" }.joined(separator: ", "))\(order.followedLinks.count > 4 ? ", …" : ""))")
                                + "; issued at once about \(DisplayFormat.number(batch.issuedAtOnceSeconds * 1000)) ms")
        }
        let count = orders[worst].waited.count
        let batch = batches[worst]
        let display = "\(count) transfer\(count == 1 ? "" : "s") issued only after the one before had finished "
            + "(\(batch.transfers.count) in one batch over \(DisplayFormat.number(batch.seconds * 1000)) ms; at once about \(DisplayFormat.number(batch.issuedAtOnceSeconds * 1000)) ms)"
        return .value(Double(count), display: display, evidence: Array(evidence))
    }
}
