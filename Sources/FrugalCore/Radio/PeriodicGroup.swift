/// Consecutive bursts that repeat on a regular cycle: ARO's periodic transfers.
public struct PeriodicGroup: Codable, Sendable, Equatable {
    /// The bursts in the group, in time order.
    public var bursts: [Burst]
    /// The median start-to-start gap between the bursts.
    public var cycleSeconds: Double

    /// Creates a group from its bursts and cycle.
    public init(bursts: [Burst], cycleSeconds: Double) {
        self.bursts = bursts
        self.cycleSeconds = cycleSeconds
    }

    /// Start of the first burst (zero for an empty group).
    public var start: Double { bursts.first?.start ?? 0 }
    /// End of the last burst (zero for an empty group).
    public var end: Double { bursts.last?.end ?? 0 }
}
