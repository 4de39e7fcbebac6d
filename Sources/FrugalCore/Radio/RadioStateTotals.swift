/// One number per radio state (seconds or joules), plus their sum.
public struct RadioStateTotals: Codable, Sendable, Equatable {
    public var promotion: Double
    public var active: Double
    public var tail: Double
    public var idle: Double

    /// Creates totals; all default to zero.
    public init(promotion: Double = 0, active: Double = 0, tail: Double = 0, idle: Double = 0) {
        self.promotion = promotion
        self.active = active
        self.tail = tail
        self.idle = idle
    }

    /// The value for one state.
    public subscript(state: RadioState) -> Double {
        get {
            switch state {
            case .promotion: promotion
            case .active: active
            case .tail: tail
            case .idle: idle
            }
        }
        set {
            switch state {
            case .promotion: promotion = newValue
            case .active: active = newValue
            case .tail: tail = newValue
            case .idle: idle = newValue
            }
        }
    }

    /// Sum over all four states.
    public var total: Double { promotion + active + tail + idle }

    /// Sum over the states the radio is up for traffic: promotion, active and tail.
    public var excludingIdle: Double { promotion + active + tail }
}
