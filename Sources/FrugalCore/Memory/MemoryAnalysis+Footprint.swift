/// What `memory.respond-to-warnings` and `memory.free-on-background` judge: the app's
/// footprint as iOS counts it (``MemoryBreakdown/footprintBytes``), sampled from outside, against
/// what it gained since launch. Evidence every process gives, whatever it allocates with (a
/// FrugalKit `Cache`, a plain dictionary, `Data`); FrugalKit's ledger of what it holds in its
/// caches is shown beside it as detail, never needed. Pure functions of samples, so the
/// black-box path can use them on a program's samples.
extension MemoryAnalysis {
    /// What an app must have gained since launch for giving it back to be judged: below it,
    /// allocator noise and the runtime's own growth (thread stacks and arenas) are as large as
    /// anything the app could free. Frugal's calibration (the rules' calibration says so).
    public static let minimumFreeableBytes = 4 * 1_048_576

    /// One judgement: how much of what the app gained since launch it still held afterwards.
    public struct Retention: Sendable, Equatable {
        /// The least footprint between launch and the moment judged: what the app needs to run.
        public var launchFootprint: Int
        /// The footprint when the warning came or the app left the foreground.
        public var before: Int
        /// The footprint afterwards (1 s after a warning; late in the background).
        public var after: Int
        /// The connections the app's HTTP client still held open afterwards, whose state is the
        /// platform's (``MemoryAnalysis/openConnections(at:in:)``); nil with none.
        public var connections: OpenConnections?
        /// Footprint gained since launch: `before − launchFootprint`.
        public var gained: Int { before - launchFootprint }
        /// Footprint given back: `before − after`.
        public var freed: Int { before - after }
        /// Of the gain, what the HTTP client's open connections are allowed (at most the gain).
        public var platformBytes: Int { min(max(0, gained), connections?.bytes ?? 0) }
        /// The fraction of the app's own gain (the gain less ``platformBytes``) still held, clamped
        /// to [0, 1]; nil when that gain is under ``MemoryAnalysis/minimumFreeableBytes`` (little to free).
        public var fraction: Double? {
            let own = gained - platformBytes
            guard own >= MemoryAnalysis.minimumFreeableBytes else { return nil }
            return min(1, max(0, Double(after - launchFootprint - platformBytes) / Double(own)))
        }

        public init(launchFootprint: Int, before: Int, after: Int, connections: OpenConnections? = nil) {
            self.launchFootprint = launchFootprint
            self.before = before
            self.after = after
            self.connections = connections
        }

        /// `footprint 9.9 MiB, 6 MiB above the launch footprint of 3.9 MiB (6 MiB of it the HTTP
        /// client's state for 6 connections kept open (6 HTTPS), the platform's); 0 B given back, 9.9 MiB held after`.
        public var summary: String {
            var text = "footprint \(ByteCount.display(Double(before))), \(ByteCount.display(Double(max(0, gained)))) above the launch footprint of \(ByteCount.display(Double(launchFootprint)))"
            if let connections, platformBytes > 0 {
                text += " (\(ByteCount.display(Double(platformBytes))) of it allowed for the HTTP client's state of \(connections.summary), the platform's)"
            }
            return text + "; \(ByteCount.display(Double(max(0, freed)))) given back, \(ByteCount.display(Double(after))) held after"
        }
    }

    /// The least footprint sampled from `launchEnd` up to (not including) `time`, or the runtime's
    /// own footprint before the app's launch when FrugalKit reported it and it is lower (an app
    /// that fills its cache while launching gained it, though no sample saw it without); nil with
    /// neither.
    public static func launchFootprint(_ samples: [ProcessSample], launchEnd: UInt64, before time: UInt64, runtime: Int? = nil) -> Int? {
        let sampled = samples.filter { $0.time >= launchEnd && $0.time < time }.compactMap { $0.memory?.footprintBytes }.min()
        return [sampled, runtime].compactMap { $0 }.min()
    }

    /// The footprint FrugalKit read before the delegate's launch (`runtimeFootprint`), if any.
    public static func runtimeFootprint(in record: RunRecord) -> Int? {
        for event in record.events {
            if case .memory(let memory) = event.body, memory.kind == .runtimeFootprint, let bytes = memory.bytes, bytes > 0 { return bytes }
        }
        return nil
    }

    /// What a warning's delivery left held: the footprint at delivery and 1 s later, against the
    /// launch footprint from `samples`. Nil when a sample of the delivery is missing.
    /// `connections`: what the app's HTTP client held open 1 s later (``openConnections(at:in:)``).
    public static func warningRetention(_ delivery: WarningDelivery, samples: [ProcessSample], launchEnd: UInt64, runtime: Int? = nil,
                                        connections: OpenConnections? = nil) -> Retention? {
        guard let at = delivery.atDelivery?.footprintBytes, let after = delivery.after1s?.footprintBytes else { return nil }
        let floor = min(at, launchFootprint(samples, launchEnd: launchEnd, before: delivery.time, runtime: runtime) ?? at)
        return Retention(launchFootprint: floor, before: at, after: after, connections: connections)
    }
}
