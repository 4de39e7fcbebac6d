import Foundation
import FrugalCore

/// A run of a report as a Perfetto trace (open it in https://ui.perfetto.dev): a process with a
/// track per thread, the main thread's handlers as slices and its hangs on a track beneath it,
/// the scenario's steps and injected events (memory warnings, pressure, network changes, faults)
/// as slices and instants, counter tracks with units (wakeups/s and CPU per thread and for the
/// process, resident and anonymous bytes, bytes written, the radio's state), network requests as
/// slices with a flow to the main-thread handler that completed them, and the run's metrics
/// (hardware counters among them, where the machine counts them) on a slice over the whole run.
///
/// Drawn from report.json alone, like the HTML: `frugal report --trace` draws an old run again.
public enum PerfettoTraceRenderer {
    /// The file extension Perfetto's tools use.
    public static let fileExtension = "pftrace"

    /// The trace of `run`.
    public static func render(_ run: RunReport) -> [UInt8] {
        var builder = Builder(run: run)
        builder.build()
        return builder.trace.encoded()
    }

    /// The radio states as a counter's values.
    static let radioLevels: [RadioState: Double] = [.idle: 0, .tail: 1, .promotion: 2, .active: 3]

    struct Builder {
        let run: RunReport
        var trace = PerfettoTrace()
        /// The process tracks by pid, and the tracks a run-wide lane goes under.
        var processes: [Int32: UInt64] = [:]
        var root: UInt64 = 0
        /// Main-thread tracks with the time their process was first seen, in order.
        var mainThreads: [(track: UInt64, from: Double)] = []
        /// Flow ids of requests waiting for their completion handler, by handler name.
        var pendingFlows: [String: [(end: Double, flow: UInt64)]] = [:]

        init(run: RunReport) {
            self.run = run
        }

        static func ns(_ seconds: Double) -> UInt64 { PerfettoTrace.nanoseconds(seconds) }

        mutating func build() {
            addProcessesAndThreads()
            addRunSlice()
            addSteps()
            addStates()
            addNetwork()
            addHandlers()
            addHangs()
            addMemory()
            addDisk()
            addProcessCounters()
            addRadio()
        }

        var title: String { "\(run.workload) · \(run.scenario) · run \(run.repetition)" }

        mutating func addProcessesAndThreads() {
            let lanes = run.timeline.threadLanes ?? []
            for pid in lanes.compactMap(\.pid) where processes[pid] == nil {
                processes[pid] = trace.processTrack(pid: pid, name: title)
            }
            // A run without samples (or a thread of unknown process) hangs off one named track.
            root = processes.isEmpty || lanes.contains { $0.pid == nil } ? trace.track(title, parent: nil) : processes.values.min() ?? 0
            for lane in lanes {
                let pid = lane.pid ?? 0
                let track = trace.threadTrack(pid: pid, tid: lane.tid, name: "\(lane.name) (\(lane.role.rawValue))")
                if lane.role == .main {
                    mainThreads.append((track, (lane.samples.first.map { $0.time - $0.interval }) ?? 0))
                }
                addRate(lane.samples.map { ($0.time - $0.interval, $0.time, Double($0.wakeups)) }, name: "wakeups/s", parent: track,
                        unitName: "wakeups/s", description: "voluntary context switches of thread \(lane.tid) per second (/proc/<pid>/task/<tid>/status)")
                addRate(lane.samples.map { ($0.time - $0.interval, $0.time, $0.cpuSeconds * 100) }, name: "CPU %", parent: track,
                        unitName: "% of a core", description: "on-CPU time of thread \(lane.tid) (/proc/<pid>/task/<tid>/schedstat)")
            }
            mainThreads.sort { $0.from < $1.from }
        }

        /// A rate lane: each interval's amount ÷ its length, from its start until the next interval
        /// (or 0 at its end when a gap follows). The counter's integral over time is the amounts' sum.
        mutating func addRate(_ intervals: [(start: Double, end: Double, amount: Double)], name: String, parent: UInt64,
                              unitName: String, description: String) {
            guard !intervals.isEmpty else { return }
            let track = trace.counterTrack(name, parent: parent, unit: .unspecified, unitName: unitName, description: description)
            var lastEnd: UInt64?
            for interval in intervals.sorted(by: { $0.start < $1.start }) {
                var start = Self.ns(interval.start)
                let end = Self.ns(interval.end)
                // Back to back within a microsecond (the two ends were rounded apart): one boundary.
                if let previous = lastEnd {
                    if start > previous + 1000 { trace.counter(on: track, at: previous, 0) } else { start = previous }
                }
                guard end > start else { continue }
                trace.counter(on: track, at: start, interval.amount / (Double(end - start) / 1e9))
                lastEnd = end
            }
            if let lastEnd { trace.counter(on: track, at: lastEnd, 0) }
        }

        /// The run over its whole length, carrying its outcome, score and every metric (hardware
        /// counters included, or why they are unavailable).
        mutating func addRunSlice() {
            let track = trace.track("Run", parent: root, description: "the run and its metrics (report.json's runs[].metrics)")
            var annotations: [(String, PerfettoTrace.Value)] = [("outcome", .string(run.outcome.rawValue))]
            if let detail = run.outcomeDetail { annotations.append(("outcome detail", .string(detail))) }
            if let score = run.score { annotations.append(("score", .double(score))) }
            for (name, metric) in run.metrics.sorted(by: { $0.key < $1.key }) {
                if let value = metric.value {
                    annotations.append((name, .string("\(HumanUnits.exact(value, unit: metric.unit)) (\(metric.source))")))
                } else {
                    annotations.append((name, .string("unavailable: \(metric.unavailable ?? "no reason given")")))
                }
            }
            trace.slice(on: track, title, start: 0, end: Self.ns(run.timeline.duration), annotations: annotations)
        }

        /// The scenario's steps as slices, and the ones that inject something as instants.
        mutating func addSteps() {
            guard !run.timeline.steps.isEmpty else { return }
            let steps = trace.track("Scenario steps", parent: root)
            let injected = trace.track("Injected events", parent: root,
                                       description: "what the scenario did to the app: lifecycle steps, memory warnings, pressure, network changes, faults")
            var lastEnd: UInt64 = 0
            for step in run.timeline.steps.sorted(by: { $0.start < $1.start }) {
                let start = max(lastEnd, Self.ns(step.start))
                let end = max(start + 1, Self.ns(step.end))
                trace.slice(on: steps, step.step, start: start, end: end,
                            annotations: step.problem.map { [("problem", .string($0))] } ?? [])
                lastEnd = end
                if !step.step.hasPrefix("wait") { trace.instant(on: injected, step.step, at: Self.ns(step.start)) }
            }
        }

        mutating func addStates() {
            guard !run.timeline.states.isEmpty else { return }
            let track = trace.track("App state", parent: root)
            var lastEnd: UInt64 = 0
            for state in run.timeline.states.sorted(by: { $0.start < $1.start }) {
                let start = max(lastEnd, Self.ns(state.start))
                let end = Self.ns(state.end)
                guard end > start else { continue }
                trace.slice(on: track, state.state.rawValue, start: start, end: end)
                lastEnd = end
            }
        }

        /// The main thread a handler at `time` ran on: its process's (several after a relaunch).
        func mainThread(at time: Double) -> UInt64? {
            (mainThreads.last { $0.from <= time } ?? mainThreads.first)?.track
        }

        mutating func addHandlers() {
            guard !run.timeline.handlers.isEmpty else { return }
            let fallback = mainThreads.isEmpty ? trace.track("Main thread", parent: root) : nil
            var lastEnd: [UInt64: UInt64] = [:]
            for handler in run.timeline.handlers.sorted(by: { $0.start < $1.start }) {
                guard let track = mainThread(at: handler.start) ?? fallback else { continue }
                // One thread runs one handler at a time: an overlap is two clocks' rounding.
                let start = max(lastEnd[track] ?? 0, Self.ns(handler.start))
                let end = max(start + 1, Self.ns(handler.start + handler.durationMs / 1000))
                var annotations: [(String, PerfettoTrace.Value)] = []
                if let cpu = handler.cpuMs { annotations.append(("on-CPU ms", .double(cpu))) }
                if let switches = handler.contextSwitches { annotations.append(("context switches", .int(Int64(switches)))) }
                if let waiting = handler.waitingMs { annotations.append(("off-CPU waiting ms", .double(waiting))) }
                var flowIn: [UInt64] = []
                if var waiting = pendingFlows[handler.name], let index = waiting.firstIndex(where: { $0.end <= handler.start + 0.001 }) {
                    flowIn.append(waiting.remove(at: index).flow)
                    pendingFlows[handler.name] = waiting
                }
                trace.slice(on: track, handler.name, start: start, end: end, annotations: annotations, flowIn: flowIn)
                lastEnd[track] = end
            }
            for mark in run.timeline.marks ?? [] {
                guard let track = mainThread(at: mark.time) ?? fallback else { continue }
                trace.instant(on: track, mark.name, at: Self.ns(mark.time), annotations: mark.detail.map { [("detail", .string($0))] } ?? [])
            }
        }

        mutating func addHangs() {
            guard let hangs = run.timeline.hangs, !hangs.isEmpty else { return }
            let parent = mainThread(at: hangs[0].start) ?? root
            let track = trace.track("Hangs", parent: parent, description: "main-thread handlers of 250 ms or more, with the stack when one was taken")
            var lastEnd: UInt64 = 0
            for hang in hangs.sorted(by: { $0.start < $1.start }) {
                let start = max(lastEnd, Self.ns(hang.start))
                let end = max(start + 1, Self.ns(hang.start + hang.durationMs / 1000))
                var annotations: [(String, PerfettoTrace.Value)] = [("duration ms", .double(hang.durationMs))]
                if let stack = hang.stack { annotations.append(("stack", .string(stack.joined(separator: "\n")))) }
                trace.slice(on: track, "hang: \(hang.handler)", start: start, end: end, annotations: annotations)
                lastEnd = end
            }
        }

        /// Slices of one kind that may overlap (requests in flight together) go on as many tracks
        /// of one name as it takes; Perfetto's UI shows them as one group.
        mutating func lanes(_ name: String, parent: UInt64, description: String?, count: inout [UInt64], ends: inout [UInt64],
                            start: UInt64) -> UInt64 {
            if let free = ends.firstIndex(where: { $0 <= start }) { return count[free] }
            count.append(trace.track(name, parent: parent, description: description))
            ends.append(0)
            return count[count.count - 1]
        }

        mutating func addNetwork() {
            guard let radio = run.timeline.radio, !radio.transfers.isEmpty else { return }
            var tracks: [UInt64] = [], ends: [UInt64] = []
            for transfer in radio.transfers.sorted(by: { $0.start < $1.start }) {
                let start = Self.ns(transfer.start), end = max(start + 1, Self.ns(transfer.end))
                let track = lanes("Network requests", parent: root, description: "requests through the run's proxy; FrugalKit's have a flow to their completion handler",
                                  count: &tracks, ends: &ends, start: start)
                if let index = tracks.firstIndex(of: track) { ends[index] = end }
                var annotations: [(String, PerfettoTrace.Value)] = [("outcome", .string(transfer.outcome.rawValue)),
                                                                   ("bytes sent", .int(Int64(transfer.bytesSent))),
                                                                   ("bytes received", .int(Int64(transfer.bytesReceived)))]
                if let error = transfer.error { annotations.append(("error", .string(error))) }
                // FrugalKit delivers a completion as main-run-loop work named after the request
                // (`network:METHOD target`, recorded as `posted:network:…`).
                var flowOut: [UInt64] = []
                if let handler = ["posted:network:", "network:"].map({ $0 + transfer.label }).first(where: { name in
                    run.timeline.handlers.contains { $0.name == name && $0.start + 0.001 >= transfer.end }
                }) {
                    let flow = trace.newFlow()
                    flowOut.append(flow)
                    pendingFlows[handler, default: []].append((transfer.end, flow))
                }
                trace.slice(on: track, transfer.label, start: start, end: end, annotations: annotations, flowOut: flowOut)
            }
        }

        mutating func addMemory() {
            if let marks = run.timeline.memoryMarks, !marks.isEmpty {
                let track = trace.track("Memory events", parent: root, description: "memory warnings delivered to the app, and the kernel's pressure events")
                for mark in marks {
                    let name = mark.kind == "warning" ? "memory warning (\(mark.level))" : "kernel pressure (\(mark.level))"
                    trace.instant(on: track, name, at: Self.ns(mark.time), annotations: mark.detail.map { [("detail", .string($0))] } ?? [])
                }
            }
            let resident = run.timeline.activity.compactMap { sample in sample.residentBytes.map { (sample.time, Double($0)) } }
            addLevels(resident, name: "Resident memory", unit: .bytes, description: "VmRSS, /proc/<pid>/status")
            let memory = run.timeline.memory ?? []
            addLevels(memory.map { ($0.time, Double($0.anonymousBytes)) }, name: "Footprint (anonymous resident)", unit: .bytes,
                      description: "anonymous resident bytes from /proc/<pid>/smaps_rollup: the dirty memory iOS counts in an app's footprint")
            addLevels(memory.map { ($0.time, Double($0.fileBytes)) }, name: "File-backed resident", unit: .bytes,
                      description: "file-backed resident bytes, /proc/<pid>/smaps_rollup")
        }

        /// A counter of levels measured at moments (bytes resident, bytes written so far).
        mutating func addLevels(_ points: [(time: Double, value: Double)], name: String, unit: PerfettoTrace.Unit, description: String) {
            guard !points.isEmpty else { return }
            let track = trace.counterTrack(name, parent: root, unit: unit, description: description)
            for point in points { trace.counter(on: track, at: Self.ns(point.time), point.value) }
        }

        mutating func addDisk() {
            if let disk = run.timeline.disk, !disk.isEmpty {
                var tracks: [UInt64] = [], ends: [UInt64] = []
                var written = 0.0
                var cumulative: [(Double, Double)] = [(0, 0)]
                for mark in disk.sorted(by: { $0.time < $1.time }) {
                    let start = Self.ns(mark.time), end = max(start + 1, Self.ns(mark.time + mark.durationMs / 1000))
                    let track = lanes("Disk (FrugalKit)", parent: root, description: "writes, fsyncs and deletes through FrugalKit's FileStore",
                                      count: &tracks, ends: &ends, start: start)
                    if let index = tracks.firstIndex(of: track) { ends[index] = end }
                    trace.slice(on: track, "\(mark.operation.rawValue) \(mark.path)", start: start, end: end,
                                annotations: [("bytes", .int(Int64(mark.bytes))), ("synced", .string(mark.synced ? "yes" : "no")),
                                              ("main thread", .string(mark.onMainThread ? "yes" : "no"))])
                    if mark.operation.writesContent {
                        written += Double(mark.bytes)
                        cumulative.append((mark.time + mark.durationMs / 1000, written))
                    }
                }
                if cumulative.count > 1 {
                    addLevels(cumulative, name: "Bytes written (FrugalKit)", unit: .bytes,
                              description: "content bytes written through FrugalKit so far (the write journal; disk.logicalBytesWritten at the end)")
                }
            }
            let io = run.timeline.io ?? []
            addLevels(io.compactMap { sample in sample.syscallBytes.map { (sample.time, Double($0)) } }, name: "Bytes written (write calls)", unit: .bytes,
                      description: "wchar, /proc/<pid>/io: bytes passed to write calls of any kind, the event pipe's included")
            addLevels(io.compactMap { sample in sample.storageBytes.map { (sample.time, Double($0)) } }, name: "Bytes written (storage)", unit: .bytes,
                      description: "write_bytes, /proc/<pid>/io: file pages the process dirtied (disk.physicalBytesWritten at the end)")
        }

        mutating func addProcessCounters() {
            let activity = run.timeline.activity
            addRate(activity.map { ($0.time - $0.interval, $0.time, Double($0.wakeups)) }, name: "Wakeups (all threads)", parent: root,
                    unitName: "wakeups/s", description: "voluntary context switches of every thread per second; the lane adds up to cpu.wakeups")
            addRate(activity.map { ($0.time - $0.interval, $0.time, $0.cpuSeconds * 100) }, name: "CPU (all threads)", parent: root,
                    unitName: "% of a core", description: "on-CPU time of every thread; the lane adds up to cpu.timeSeconds")
        }

        mutating func addRadio() {
            guard let radio = run.timeline.radio, !radio.intervals.isEmpty else { return }
            let track = trace.counterTrack("Radio state", parent: root, unit: .unspecified, unitName: "0 idle, 1 tail, 2 promotion, 3 active",
                                           description: "the device radio's state as \(radio.profile) sees the proxy's trace (\(radio.model))")
            var lastEnd: UInt64?
            for interval in radio.intervals.sorted(by: { $0.start < $1.start }) {
                let start = Self.ns(interval.start)
                if let previous = lastEnd, start > previous + 1000 { trace.counter(on: track, at: previous, 0) }
                trace.counter(on: track, at: start, PerfettoTraceRenderer.radioLevels[interval.state] ?? 0)
                lastEnd = Self.ns(interval.end)
            }
            if let lastEnd { trace.counter(on: track, at: lastEnd, 0) }
        }
    }
}
