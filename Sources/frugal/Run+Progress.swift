import Foundation
import FrugalCore
import FrugalHarness
import FrugalProbe

/// `frugal run`'s account of where a suite is: runs done, running and left, and the time left
/// as the schedule will play it out (``ScheduleEstimate``), not the sum of the scenarios.
///
/// On a terminal, a live line under the progress lines, redrawn each second. Elsewhere (a CI
/// log, a pipe), a plain line at most every 10 s, after a run has finished: a log keeps every
/// line, so a line a second would drown the runs'.
final class SuiteProgress: @unchecked Sendable {
    // @unchecked: every field but the constants is read and written holding `lock`.
    private let lock = NSLock()
    private let plans: [RunPlan]
    private let order: [Int]
    private var estimate: ScheduleEstimate
    private let live: Bool
    private let suiteStarted = Date()
    private var started: [Int: Date] = [:]
    private var done = Set<Int>()
    private var planned: [Double] = []
    private var actual: [Double] = []
    private var lastPlain = Date.distantPast
    private var timer: DispatchSourceTimer?
    private var shown = false

    init(plans: [RunPlan], jobs: Int?) {
        self.plans = plans
        estimate = ScheduleEstimate(jobs: jobs)
        order = estimate.order(plans)
        let term = ProcessInfo.processInfo.environment["TERM"] ?? ""
        live = isatty(STDERR_FILENO) == 1 && term != "dumb" && ProcessInfo.processInfo.environment["CI"] == nil
    }

    /// The time the suite is expected to take, before it starts.
    var expectedSeconds: Double {
        lock.withLock { estimate.secondsLeft(pending: order.map { estimate.item(plans[$0]) }, running: []) }
    }

    /// Starts the live line's clock, on a terminal.
    func begin() {
        guard live else { return }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "frugal.progress"))
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { [weak self] in self?.redraw() }
        lock.withLock { self.timer = timer }
        timer.resume()
    }

    /// Takes the live line away, for the summary that follows.
    func end() {
        lock.withLock {
            timer?.cancel()
            timer = nil
            if shown { StandardError.write("\r\u{1B}[K") }
            shown = false
        }
    }

    func starting(_ index: Int, line: String) {
        lock.withLock {
            started[index] = Date()
            write(line)
        }
    }

    func finished(_ index: Int, lines: [String]) {
        lock.withLock {
            if let start = started.removeValue(forKey: index) {
                planned.append(plans[index].scenario.waitSeconds)
                actual.append(Date().timeIntervalSince(start))
                estimate = estimate.calibrated(planned: planned, actual: actual)
            }
            done.insert(index)
            for line in lines { write(line) }
            if !live && Date().timeIntervalSince(lastPlain) >= 10 && done.count < plans.count {
                lastPlain = Date()
                StandardError.write("frugal: " + status() + "\n")
            }
        }
    }

    /// A progress line, above the live line on a terminal. Holding `lock`.
    private func write(_ line: String) {
        let text = TextSanitizer.oneLine(line, limit: 2000)
        if live {
            StandardError.write("\r\u{1B}[K" + text + "\n" + status())
            shown = true
        } else {
            StandardError.write(text + "\n")
        }
    }

    private func redraw() {
        lock.withLock {
            guard timer != nil else { return }
            StandardError.write("\r\u{1B}[K" + status())
            shown = true
        }
    }

    /// `12 done, 3 running, 30 left · 1:05 so far, about 41 s to go`. Holding `lock`.
    private func status() -> String {
        let now = Date()
        let running = started.map { index, start -> ScheduleEstimate.Running in
            let item = estimate.item(plans[index])
            let elapsed = now.timeIntervalSince(start)
            // A run past its expected length is expected to end soon, not to have ended.
            return ScheduleEstimate.Running(left: max(0.5, item.seconds - elapsed), holdLeft: item.hold - elapsed, light: item.light,
                                           gated: item.gated, activeLeft: item.active - elapsed)
        }
        let pending = order.filter { started[$0] == nil && !done.contains($0) }
        let left = estimate.secondsLeft(pending: pending.map { estimate.item(plans[$0]) }, running: running)
        return "\(done.count) done, \(started.count) running, \(pending.count) left · \(Self.clock(now.timeIntervalSince(suiteStarted))) so far, about \(Self.clock(left)) to go"
    }

    /// `41 s`, `3:05`.
    static func clock(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        return whole < 60 ? "\(whole) s" : String(format: "%d:%02d", whole / 60, whole % 60)
    }
}
