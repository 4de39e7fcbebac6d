extension MetricExtraction.Source {
    /// Bytes counted by the shaping proxy as it released them.
    public static let proxyTrace = "proxy:trace"
    /// Requests counted by the origin server.
    public static let originRequests = "origin:requests"
}

extension MetricExtraction {
    /// `network.*`: bytes and requests from the proxy and origin, radio time and energy from the
    /// device radio's model over the proxy's trace.
    static let networkMetrics: @Sendable (RunAnalysis, inout [String: MetricValue]) -> Void = { analysis, metrics in
        let network = NetworkAnalysis(analysis)
        let source = network.modelSource
        guard let record = network.network, let radio = network.radio else {
            let reason = "no shaping proxy ran for this run (a record from before the network harness)"
            metrics[MetricName.networkBytesSent] = .unavailable(unit: "bytes", source: Source.proxyTrace, reason: reason)
            metrics[MetricName.networkBytesReceived] = .unavailable(unit: "bytes", source: Source.proxyTrace, reason: reason)
            metrics[MetricName.networkTransfers] = .unavailable(unit: "count", source: Source.originRequests, reason: reason)
            for (name, unit) in radioMetrics {
                metrics[name] = .unavailable(unit: unit, source: source, reason: reason)
            }
            return
        }
        let unseen = Set((record.unseenConnections ?? []).map(\.remoteAddress)).sorted()
        if !network.hasTraffic && !unseen.isEmpty {
            // Nothing through the proxy, yet the app talked to someone: unseen, not zero.
            let reason = "the app's \(unseen.count) connection\(unseen.count == 1 ? "" : "s") went past the proxy (to \(unseen.prefix(3).joined(separator: ", "))\(unseen.count > 3 ? ", ..." : "")): unseen traffic, neither shaped nor counted"
            metrics[MetricName.networkBytesSent] = .unavailable(unit: "bytes", source: Source.proxyTrace, reason: reason)
            metrics[MetricName.networkBytesReceived] = .unavailable(unit: "bytes", source: Source.proxyTrace, reason: reason)
            metrics[MetricName.networkTransfers] = .unavailable(unit: "count", source: Source.originRequests, reason: reason)
            for (name, unit) in radioMetrics {
                metrics[name] = .unavailable(unit: unit, source: source, reason: reason)
            }
            return
        }
        // The proxy was there and counted: zero bytes is a measurement of traffic through it.
        metrics[MetricName.networkBytesSent] = MetricValue(Double(record.trace.totalBytes(.uplink)), unit: "bytes", source: Source.proxyTrace)
        metrics[MetricName.networkBytesReceived] = MetricValue(Double(record.trace.totalBytes(.downlink)), unit: "bytes", source: Source.proxyTrace)
        metrics[MetricName.networkTransfers] = MetricValue(Double(record.origin.requests), unit: "count", source: Source.originRequests)
        guard network.hasTraffic else {
            let reason = "the workload moved no bytes through the shaping proxy, so the radio model has nothing to price (traffic that bypasses the proxy is not seen)"
            for (name, unit) in radioMetrics {
                metrics[name] = .unavailable(unit: unit, source: source, reason: reason)
            }
            return
        }
        metrics[MetricName.networkRadioActiveSeconds] = MetricValue(radio.radioActiveSeconds, unit: "s", source: source)
        metrics[MetricName.networkRadioTailSeconds] = MetricValue(radio.tailSeconds, unit: "s", source: source)
        metrics[MetricName.networkRadioJoules] = MetricValue(radio.attributedJoules, unit: "J", source: source)
        metrics[MetricName.networkRadioPromotions] = MetricValue(Double(radio.promotions), unit: "count", source: source)
    }

    static let radioMetrics: [(String, String)] = [
        (MetricName.networkRadioActiveSeconds, "s"), (MetricName.networkRadioTailSeconds, "s"),
        (MetricName.networkRadioJoules, "J"), (MetricName.networkRadioPromotions, "count"),
    ]
}
