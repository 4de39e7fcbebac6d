import FrugalCore

/// How long what is left of a suite will take, from the schedule it runs under rather than the
/// sum of its scenarios: ``ResourceScheduler``'s rules (light runs side by side up to its slots,
/// a launch or an exclusive run holding the machine, gated runs side by side up to theirs, their
/// judged steps one at a time through the gate, before the exclusive runs) or ``SuiteRunner``'s `jobs` workers,
/// played forward with each run's expected length. Progress lines show it; nothing waits on it.
public struct ScheduleEstimate: Sendable {
    /// A run's expected length: (its scenario's waits + `overhead`, for set-up, launch,
    /// terminate and reaping) × `scale`; ``calibrated(planned:actual:)`` learns both as runs
    /// finish.
    public var scale = 1.0
    public var overhead = 0.6
    /// How long a launch (or a black-box program's start) holds the machine, seconds.
    public var launchHold = 0.25
    /// How long each judged step of a gated run after its launch holds the gate, seconds: the
    /// step (an input's handling, a terminate, a resume: tens of ms) and the settle after it.
    public var stepHold = 0.15
    /// nil: scheduled by demand; N: `--jobs N`.
    public var jobs: Int?
    public var lightSlots = 10
    public var gatedSlots = 4

    public init(jobs: Int?, lightSlots: Int = 10, gatedSlots: Int = 4) {
        self.jobs = jobs
        self.lightSlots = max(1, lightSlots)
        self.gatedSlots = max(1, gatedSlots)
    }

    /// What a plan asks, for the estimate.
    public struct Item: Sendable {
        public var seconds: Double
        public var light: Bool
        /// How long it holds the machine from its start (its launch when light; its whole run,
        /// or up to its closing idle, when exclusive).
        public var hold: Double
        /// A gated run (``RunDemand/gated(_:)``): `hold` is its launch's, and `gate` how long its
        /// later judged steps hold the gate in all.
        public var gated = false
        public var gate = 0.0
        /// A gated run: how long from its start an exclusive run waits for it (up to its closing
        /// idle, or its whole length).
        public var active = 0.0
    }

    /// The expected length and hold of `plan`.
    public func item(_ plan: RunPlan) -> Item {
        let seconds = (plan.scenario.waitSeconds + overhead) * scale
        switch plan.demand {
        case .light: return Item(seconds: seconds, light: true, hold: min(seconds, launchHold))
        case .gated:
            let judged = plan.scenario.steps.dropFirst().filter(\.isJudgedOnTime).count
            return Item(seconds: seconds, light: false, hold: min(seconds, launchHold), gated: true, gate: Double(judged) * stepHold * scale,
                        active: max(launchHold, seconds - closingIdle(plan.scenario)))
        case .exclusive: return Item(seconds: seconds, light: false, hold: seconds)
        case .exclusiveUntilIdle:
            return Item(seconds: seconds, light: false, hold: max(launchHold, seconds - closingIdle(plan.scenario)))
        }
    }

    /// The closing wait a run lets the machine go at (``RunDemand/idleTail(of:)``), scaled; 0
    /// without one.
    func closingIdle(_ scenario: Scenario) -> Double {
        guard let idle = RunDemand.idleTail(of: scenario), scenario.steps[idle].kind == .wait else { return 0 }
        let wait = scenario.steps[idle].argument.seconds
        return wait * scale
    }

    /// The same fitted to the runs done so far: `overhead` is the median of what each took past
    /// its waits (set-up, launch, terminate, reaping: a fixed cost a run, which a suite of short
    /// exclusive runs pays one after another), then `scale` the median of each run's length over
    /// its waits + that overhead, between 0.8 and 4 (a loaded machine stretches the inputs' and
    /// launch's handling too). Medians, so one run that waited on the disk does not throw it, as a
    /// least-squares fit of a few runs did (seen: 59 s to go, then 3:53, then 2:52).
    public func calibrated(planned: [Double], actual: [Double]) -> ScheduleEstimate {
        var copy = self
        guard planned.count == actual.count, !planned.isEmpty else { return copy }
        copy.overhead = min(30, max(0, Self.median(zip(planned, actual).map { $0.1 - $0.0 })))
        copy.scale = min(4, max(0.8, Self.median(zip(planned, actual).map { $0.1 / max(0.1, $0.0 + copy.overhead) })))
        return copy
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// A run under way: how much longer it runs and how much longer it holds the machine.
    public struct Running: Sendable {
        public var left: Double
        public var holdLeft: Double
        public var light: Bool
        public var gated: Bool
        /// A gated run: how much longer an exclusive run waits for it.
        public var activeLeft: Double
        public init(left: Double, holdLeft: Double, light: Bool, gated: Bool = false, activeLeft: Double = 0) {
            self.left = max(0, left)
            self.holdLeft = max(0, holdLeft)
            self.light = light
            self.gated = gated
            self.activeLeft = max(0, activeLeft)
        }
    }

    /// Seconds until the last of `pending` (in the order the scheduler takes them) and
    /// `running` has ended.
    public func secondsLeft(pending: [Item], running: [Running]) -> Double {
        if let jobs { return Self.workers(jobs, pending: pending, running: running) }
        var end = running.map(\.left).max() ?? 0
        // When the machine is next free (no launch or exclusive run holding it).
        var free = running.map(\.holdLeft).max() ?? 0
        var lightEnds = running.filter(\.light).map(\.left)
        var gatedEnds = running.filter(\.gated).map(\.left)
        var gatedActiveEnds = running.filter(\.gated).map(\.activeLeft)
        let light = pending.filter(\.light)
        let exclusive = pending.filter { !$0.light && !$0.gated }
        let gated = pending.filter(\.gated)
        // When the gate has served every judged step asked of it so far: gated runs' steps take
        // it one at a time, so their sum bounds the end however their runs overlap.
        var gateEnd = free
        // Cursors rather than removeFirst: this runs on every progress line, and a suite of
        // 1,000 runs made each call a million moves.
        var nextLight = 0, nextExclusive = 0, nextGated = 0
        while nextLight < light.count || nextExclusive < exclusive.count || nextGated < gated.count {
            lightEnds.removeAll { $0 <= free }
            gatedEnds.removeAll { $0 <= free }
            let next: Item
            if nextLight < light.count && lightEnds.count < lightSlots {
                next = light[nextLight]
                nextLight += 1
            } else if nextGated < gated.count && gatedEnds.count < gatedSlots {
                next = gated[nextGated]
                nextGated += 1
            } else if nextGated == gated.count && nextExclusive < exclusive.count {
                // An exclusive run starts once no gated run is going, or all are in their closing idle.
                if let last = gatedActiveEnds.max(), last > free {
                    free = last
                    continue
                }
                next = exclusive[nextExclusive]
                nextExclusive += 1
            } else {
                // Every slot taken: the next run starts when one ends.
                let soonest = (nextGated < gated.count ? gatedEnds : lightEnds).min()
                free = max(free, soonest ?? free)
                continue
            }
            let start = free
            free = start + next.hold
            var finish = start + next.seconds
            if next.gated {
                gateEnd = max(gateEnd, free) + next.gate
                finish = max(finish, gateEnd)
                gatedEnds.append(finish)
                gatedActiveEnds.append(max(start + next.active, gateEnd))
            }
            if next.light { lightEnds.append(finish) }
            end = max(end, finish)
        }
        return end
    }

    /// `jobs` workers, each taking the next plan as it frees.
    static func workers(_ jobs: Int, pending: [Item], running: [Running]) -> Double {
        var free = running.map(\.left).sorted()
        while free.count < max(1, jobs) { free.insert(0, at: 0) }
        free.sort()
        var end = free.last ?? 0
        for item in pending {
            let start = free.removeFirst()
            let finish = start + item.seconds
            end = max(end, finish)
            let at = free.firstIndex { $0 > finish } ?? free.count
            free.insert(finish, at: at)
        }
        return end
    }

    /// The order the scheduler takes `plans` in: longest first, light ones before exclusive ones
    /// when a slot is free, then the gated ones, then the exclusive ones (``ResourceScheduler``),
    /// or longest first (``SuiteRunner``).
    public func order(_ plans: [RunPlan]) -> [Int] {
        if jobs != nil {
            return plans.indices.sorted { (-plans[$0].scenario.waitSeconds, $0) < (-plans[$1].scenario.waitSeconds, $1) }
        }
        let (light, exclusive, gated) = ResourceScheduler.queues(plans)
        return light + gated + exclusive
    }
}
