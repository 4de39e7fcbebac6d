import Foundation

/// A timer's creation as FrugalKit's runtime marks it (`timer-scheduled`): what the timer checks
/// of `--rules apple-limits` read from the run's marks. Only `RunLoopTimer` is seen: a Foundation
/// `Timer` or a `DispatchSourceTimer` is created in code the runtime does not run.
public struct TimerCreation: Sendable, Equatable {
    /// The mark's name.
    public static let markName = "timer-scheduled"

    public var name: String
    public var interval: Double
    public var tolerance: Double
    public var repeats: Bool
    /// `file:line` where the app created it.
    public var site: String

    public init(name: String, interval: Double, tolerance: Double, repeats: Bool, site: String) {
        self.name = name
        self.interval = interval
        self.tolerance = tolerance
        self.repeats = repeats
        self.site = site
    }

    /// The mark's detail: readable on the timeline, and read back by ``init(detail:)``. The name
    /// goes last, so a name holding the separator still reads back whole.
    public var detail: String {
        "interval \(interval) s; tolerance \(tolerance) s; \(repeats ? "repeats" : "once"); at \(site); name \(name)"
    }

    /// Reads a mark's detail back; nil when it is not one.
    public init?(detail: String) {
        let parts = detail.components(separatedBy: "; ")
        guard parts.count >= 5, parts[0].hasPrefix("interval "), parts[1].hasPrefix("tolerance "), parts[3].hasPrefix("at "),
              parts[4].hasPrefix("name "),
              let interval = Double(parts[0].dropFirst("interval ".count).dropLast(2)),
              let tolerance = Double(parts[1].dropFirst("tolerance ".count).dropLast(2)) else { return nil }
        self.init(name: String(parts[4...].joined(separator: "; ").dropFirst("name ".count)), interval: interval, tolerance: tolerance,
                  repeats: parts[2] == "repeats", site: String(parts[3].dropFirst("at ".count)))
    }
}
