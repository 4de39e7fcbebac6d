extension Audits {
    /// TCP's initial congestion window of 10 segments of 1,460 B (RFC 6928): the data a new
    /// connection can send in its first round trip. Below it, fewer requests or fewer bytes
    /// cannot save a round trip of transfer, so the network's byte-rate audits do not apply.
    public static let initialWindowBytes = 14_600

    /// Network audits, over the shaping proxy's trace, the origin's counters and the app's requests.
    static let network: [Audit] = [
        Audit("network.transmit-in-bursts") { analysis, _ in
            let network = NetworkAnalysis(analysis)
            if let skip = Audits.needsTraffic(network) { return skip }
            let split = Audits.unpromptedChunks(network, inputs: Audits.inputTimes(analysis))
            var evidence = split.prompted.prefix(10).map { burst in
                Evidence(time: burst.start, durationMs: burst.duration * 1000,
                         description: "asked for by the user (an input step within \(DisplayFormat.number(PromotionAttribution.promptWindowSeconds)) s before): \(HumanUnits.bytes(Double(burst.uplinkBytes))) up, \(HumanUnits.bytes(Double(burst.downlinkBytes))) down; not judged as trickle")
            }
            guard !split.chunks.isEmpty else {
                return .notApplicable("every transfer began within \(DisplayFormat.number(PromotionAttribution.promptWindowSeconds)) s of an input step: the user asked for each, and what they ask for when they ask is not background trickle")
            }
            let comparison = OneBurstComparison(chunks: split.chunks, profile: network.radioProfile, window: network.window)
            let bursts = BurstAnalysis(chunks: split.chunks, criteria: network.radioProfile.burstCriteria).bursts
            evidence = bursts.prefix(20).map { burst in
                Evidence(time: burst.start, durationMs: burst.duration * 1000,
                         description: "burst: \(HumanUnits.bytes(Double(burst.uplinkBytes))) up, \(HumanUnits.bytes(Double(burst.downlinkBytes))) down over \(burst.connections.count) connection\(burst.connections.count == 1 ? "" : "s")")
            } + evidence
            let display = "\(DisplayFormat.number(comparison.energyRatio))× the radio energy of one burst "
                + "(\(DisplayFormat.number(comparison.trace.attributedJoules)) J vs \(DisplayFormat.number(comparison.oneBurst.attributedJoules)) J, "
                + "\(bursts.count) burst\(bursts.count == 1 ? "" : "s")"
                + (split.prompted.isEmpty ? "" : " not counting \(split.prompted.count) the user asked for")
                + ", \(network.radioProfile.technology.rawValue))"
            return .value(comparison.energyRatio, display: display, evidence: Array(evidence))
        },
        Audit("network.no-server-polling") { analysis, _ in
            let network = NetworkAnalysis(analysis)
            if let skip = Audits.needsTraffic(network) { return skip }
            guard let radio = network.radio, analysis.wallSeconds > 0 else { return .unavailable("the run had no duration") }
            var prompts = analysis.handlers.filter { PromotionAttribution.isPrompt($0.name) }.map { analysis.runTime($0.start) }
            // A black box has no handlers to read: its launch (exec) is what asked for its first fetch.
            if analysis.record.blackBox { prompts.append(0) }
            let unprompted = PromotionAttribution.unprompted(radio, prompts: prompts)
            let judgement = PromotionAttribution.perMinute(count: unprompted.count, seconds: analysis.wallSeconds)
            let perMinute = judgement.value
            var evidence = unprompted.prefix(20).map {
                Evidence(time: $0.start, durationMs: $0.duration * 1000, description: "promotion (\($0.rrcState)) that no input or launch asked for")
            }
            let periodic = BurstAnalysis(chunks: network.chunks, criteria: network.radioProfile.burstCriteria).periodicGroups
            for group in periodic {
                evidence.append(Evidence(time: group.start, durationMs: (group.end - group.start) * 1000,
                                         description: "periodic transfers: \(group.bursts.count) bursts every \(DisplayFormat.number(group.cycleSeconds)) s"))
            }
            let display = "\(judgement.display) (\(unprompted.count) of \(radio.promotions)"
                + (periodic.isEmpty ? ")" : "; periodic every \(DisplayFormat.number(periodic[0].cycleSeconds)) s)")
            return .value(perMinute, display: display, evidence: evidence)
        },
        Audit("network.compact-transfers") { analysis, _ in
            guard let network = analysis.record.network else { return .unavailable("no origin server ran for this run") }
            let origin = network.origin
            guard origin.bodyBytes > 0 else { return .notApplicable("no request or response carried a body") }
            guard let input = origin.deflateInputBytes, let deflated = origin.deflatedBytes, input > 0, deflated > 0 else {
                return .unavailable("the origin server did not measure compressibility (no whole body was deflated)")
            }
            guard input >= Self.initialWindowBytes else {
                return .notApplicable("the bodies total \(input) B, within one TCP initial window (\(Self.initialWindowBytes) B, RFC 6928): compressing them could not save a round trip, and the radio's cost of so few bytes is its promotion and tail")
            }
            // What crossed the link against what the bodies could have taken: a body the client
            // asked for in gzip already crossed near its deflated size.
            let wire = origin.deflateWireBytes ?? input
            let ratio = Double(wire) / Double(deflated)
            var evidence = origin.paths.sorted { ($0.value.deflateInputBytes ?? 0) > ($1.value.deflateInputBytes ?? 0) }.prefix(10)
                .compactMap { path, stats -> Evidence? in
                    guard let bytes = stats.deflateInputBytes, let packed = stats.deflatedBytes, packed > 0 else { return nil }
                    let sent = stats.deflateWireBytes ?? bytes
                    let encoded = sent < bytes ? ", sent encoded as \(HumanUnits.bytes(Double(sent)))" : ""
                    return Evidence(description: "\(path): \(stats.requests) request\(stats.requests == 1 ? "" : "s"), \(HumanUnits.bytes(Double(bytes))) of bodies deflate to \(HumanUnits.bytes(Double(packed))) (\(DisplayFormat.number(Double(bytes) / Double(packed)))×)\(encoded)")
                }
            let unasked = (network.requests ?? []).filter { $0.contentEncoding == nil && $0.acceptEncoding == nil && $0.responseBodyBytes >= 1000 }
            if !unasked.isEmpty {
                evidence.append(Evidence(description: "\(unasked.count) response\(unasked.count == 1 ? "" : "s") of 1 KB or more went unencoded: the client sent no Accept-Encoding (e.g. \(unasked[0].label))"))
            }
            let how = wire < input ? "\(input) B of bodies crossed as \(wire) B, deflate to \(deflated) B" : "bodies deflate \(DisplayFormat.number(ratio))× (\(input) B → \(deflated) B"
            let display = wire < input ? "\(DisplayFormat.number(ratio))× the deflated size on the wire (\(how), zlib level 6)" : "\(how), zlib level 6)"
            return .value(ratio, display: display, evidence: evidence)
        },
        Audit("network.avoid-chatty-protocols") { analysis, _ in
            guard let network = analysis.record.network else { return .unavailable("no shaping proxy ran for this run") }
            let wire = network.requests ?? []
            guard !wire.isEmpty else {
                if network.trace.chunks.isEmpty { return .notApplicable("the workload made no request through the proxy") }
                return .unavailable("the proxy moved bytes but the origin logged no HTTP request (a record from before it did, or traffic that is not HTTP): the requests cannot be told apart")
            }
            let exchanges = ChattyExchange.group(Audits.firstAttempts(wire, analysis), prompts: Audits.inputTimes(analysis))
            let worst = exchanges.max { $0.extraRoundTrips < $1.extraRoundTrips }
            let evidence = exchanges.sorted { $0.extraRoundTrips > $1.extraRoundTrips }.prefix(10).map { exchange in
                let labels = exchange.requests.prefix(4).map(\.label).joined(separator: ", ") + (exchange.requests.count > 4 ? ", …" : "")
                let bytes = exchange.requests.reduce(0) { $0 + $1.requestBodyBytes + $1.responseBodyBytes }
                return Evidence(time: exchange.start, durationMs: (exchange.end - exchange.start) * 1000,
                                description: "\(exchange.requests.count) small requests to \(exchange.host.isEmpty ? "the origin" : exchange.host) in \(DisplayFormat.number((exchange.end - exchange.start) * 1000)) ms with no input between, \(HumanUnits.bytes(Double(bytes))) of bodies, in \(exchange.roundTrips) round trip\(exchange.roundTrips == 1 ? "" : "s") one after another (requests per round trip: \(exchange.waveSizes.prefix(12).map(String.init).joined(separator: ", "))\(exchange.waveSizes.count > 12 ? ", …" : "")), \(exchange.extraRoundTrips) waiting for one answer before the next: \(labels)")
            }
            let extra = worst?.extraRoundTrips ?? 0
            let display = worst.map { "\($0.extraRoundTrips) round trip\($0.extraRoundTrips == 1 ? "" : "s") one request would have saved (\($0.requests.count) small requests to one host, close together, unprompted between; \(wire.count) requests in all)" }
                ?? "no small requests that could have been one (\(wire.count) request\(wire.count == 1 ? "" : "s") in all)"
            return .value(Double(extra), display: display, evidence: Array(evidence))
        },
        Audit("network.enqueue-together") { analysis, _ in
            enqueueTogether(analysis)
        },
        Audit("network.handle-failures") { analysis, _ in
            let network = NetworkAnalysis(analysis)
            guard let record = network.network else { return .unavailable("no shaping proxy ran for this run") }
            guard record.injectedFailures else { return .notApplicable("the scenario injected no failure (no fault step, no offline period)") }
            // Decided from the wire (the proxy's refused and reset connections, the origin's
            // answers): any client's. NetworkClient's failed attempts only name a connection the
            // origin read no request on.
            let clientFailures = network.requests.filter { $0.outcome == .failed }
                .map { (label: "\($0.method) \($0.target)", start: analysis.runTime($0.start), end: analysis.runTime($0.end)) }
            let ledger = WireFailureLedger(record, clientFailures: clientFailures)
            guard !ledger.operations.isEmpty else {
                return .notApplicable("no request of the app met the injected failures (the proxy refused or reset none of its connections with a request in flight)")
            }
            var evidence: [Evidence] = []
            for operation in ledger.operations.prefix(20) {
                let name = operation.label ?? "a request the run could not read (a refused connection carries none)"
                let attempts = "\(operation.failures.count) failed attempt\(operation.failures.count == 1 ? "" : "s") (\(operation.failures.map(\.what).joined(separator: ", ")))"
                if let success = operation.recoveredBy {
                    evidence.append(Evidence(time: success.end, description: "recovered: \(name) after \(operation.cause): \(attempts), then \(success.label) answered \(success.status)"))
                } else {
                    evidence.append(Evidence(time: operation.failures.last?.time, description: "lost: \(name) after \(operation.cause): \(attempts), and no later request went through"))
                }
            }
            // FrugalKit's client, where the app used it: its own account of each operation.
            let clientLedger = OperationLedger(network.requests)
            for operation in clientLedger.failed {
                let outcome = operation.lost ? "never succeeded" : "succeeded on attempt \((operation.attempts.firstIndex(where: \.succeeded) ?? 0) + 1)"
                evidence.append(Evidence(description: "NetworkClient: \(operation.name) met a failure and \(outcome)"))
            }
            for fault in record.faults {
                evidence.append(Evidence(time: fault.time, description: "injected: \(fault.detail)"))
            }
            // Both are lower bounds of what the app lost: the wire misses a request written into a
            // kept-alive connection the proxy had already reset (it never reached the proxy: seen in
            // CI, the fragile sync's second batch read 3 lost of 4), and FrugalKit's client sees only
            // its own requests. The larger is the count, as the wire decided it applies.
            let wireLost = ledger.lost.count, clientLost = clientLedger.lost.count
            if clientLost > wireLost {
                evidence.append(Evidence(description: "FrugalKit's client counted \(clientLost) operations lost, more than the wire showed (\(wireLost): a request written into a connection the proxy had already reset never reaches it): the client's count is used"))
            }
            let lost = max(wireLost, clientLost), met = max(ledger.operations.count, clientLedger.failed.count)
            return .value(Double(lost), display: "\(lost) operation\(lost == 1 ? "" : "s") lost of \(met) that met a failure", evidence: evidence)
        },
    ]

    /// The wire's requests less those that are not the app's protocol: requests with no whole
    /// response (the network broke them) and, where FrugalKit's client says so, retries of an
    /// operation after a failure (network.handle-failures judges those). Another client's retry
    /// looks like a new request on the wire and stays.
    static func firstAttempts(_ wire: [WireRequest], _ analysis: RunAnalysis) -> [WireRequest] {
        var seen: Set<String> = []
        let retries = NetworkAnalysis(analysis).requests.sorted { $0.start < $1.start }
            .filter { !seen.insert($0.operation).inserted }
            .map { (method: $0.method, target: $0.target, start: analysis.runTime($0.start), end: analysis.runTime($0.end)) }
        return wire.filter { request in
            request.completed && !retries.contains { retry in
                retry.method == request.method && retry.target == request.target
                    && request.start >= retry.start - 0.05 && request.start <= retry.end + 0.05
            }
        }
    }

    /// The times of the scenario's `input` steps, seconds since exec: what the user asked for.
    static func inputTimes(_ analysis: RunAnalysis) -> [Double] {
        analysis.record.steps.compactMap { step in
            if step.step.kind == .input { return analysis.runTime(step.start) }
            return nil
        }
    }

    /// The chunks of the bursts no input step started, and the bursts one did: a burst beginning
    /// within ``PromotionAttribution/promptWindowSeconds`` after an input is a transfer the user
    /// asked for then (a fetch on a tap, an upload they chose), not background trickle.
    static func unpromptedChunks(_ network: NetworkAnalysis, inputs: [Double]) -> (chunks: [TrafficChunk], prompted: [Burst]) {
        let bursts = BurstAnalysis(chunks: network.chunks, criteria: network.radioProfile.burstCriteria).bursts
        let prompted = bursts.filter { burst in
            inputs.contains { burst.start >= $0 && burst.start - $0 <= PromotionAttribution.promptWindowSeconds }
        }
        let chunks = network.chunks.filter { chunk in !prompted.contains { chunk.time >= $0.start && chunk.time <= $0.end } }
        return (chunks, prompted)
    }

    /// Why a trace-based audit cannot judge the run, or nil when it can.
    static func needsTraffic(_ network: NetworkAnalysis) -> AuditMeasurement? {
        if network.network == nil { return .unavailable("no shaping proxy ran for this run") }
        if !network.hasTraffic {
            let unseen = Set((network.network?.unseenConnections ?? []).map(\.remoteAddress)).sorted()
            if !unseen.isEmpty {
                return .unavailable("the app's traffic went past the proxy (to \(unseen.prefix(3).joined(separator: ", "))): unseen, not judged as none")
            }
            return .notApplicable("the workload moved no bytes through the shaping proxy")
        }
        return nil
    }
}
