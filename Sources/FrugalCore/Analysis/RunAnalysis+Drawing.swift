/// Drawing seen from outside: an active app's main thread waking at a display's frame rate.
///
/// `power.avoid-polling` leaves out the frames an app draws while in use (the guide's "Do not
/// draw to the screen faster than is needed" is `power.frame-rate`'s question, not polling's).
/// FrugalKit's `scheduleFrameTimer` names its frames (`frame:` handlers), but an app drawing from
/// a Foundation `Timer`, a `DispatchSourceTimer` on the main queue or a display-link of its own
/// names nothing. What any app shows is its main thread's voluntary switches in the harness's
/// `/proc` samples, and its state, which the scenario's steps set (launch and `foreground` make it
/// active; `interrupt` and `home` take that away). A stretch of samples in which, slice after
/// slice, the main thread of an active app woke at least ``lowestFrameRate`` times a second is
/// the app updating what is on screen: the main thread is where an app draws. Those wakeups of
/// the main thread are not charged as polling; every other thread's wakeups in the same slices
/// still are (a poller on a queue beside an animation is still a poller), and so is a main
/// thread that wakes slower than a frame rate (a 1 s "check for news" timer) or only while the
/// app is inactive or in the background (judged by `lifecycle.quiesce-when-inactive` and
/// `lifecycle.minimal-background-work`).
///
/// Only an app that can draw is drawing. A FrugalKit app draws in the app model (its frames and
/// timers update what it shows). A black-box program on Linux draws through a display server,
/// which its environment names (`RunRecord.displayServer`); with none, its main thread waking
/// at a frame rate is a loop sleeping between checks (`while true; do sleep 0.05; done`, a Python
/// `time.sleep(0.05)` loop), and is charged: left out, a 20 Hz poller scored 1.0 where a 1 Hz one
/// scored 0.30.
extension RunAnalysis {
    /// The lowest rate at which the platform's displays animate: "ProMotion displays are capable
    /// of dynamically switching between frame rates ranging from 24Hz to 120Hz on iPad Pro, and
    /// from 10Hz to 120Hz on supported iPhone devices" (Apple, "Optimizing iPhone and iPad apps to
    /// support ProMotion displays"). A main thread waking slower than that is not keeping up a
    /// picture; polling timers run at periods of a second and more.
    public static let lowestFrameRate = 10.0

    /// How long the main thread must keep up the frame rate, sample after sample, to count as
    /// drawing: five frames at the lowest rate. One slice (0.2 s) at 10/s is two wakeups, which
    /// a 1 Hz timer and the hand-off of its result can make by themselves; half a second at that
    /// rate is five, which no timer slower than a frame rate makes.
    public static let minimumDrawingSeconds = 0.5

    /// Whether the app had something to draw on: a FrugalKit app, or a program whose environment
    /// named a display server.
    public var canDraw: Bool { !record.blackBox || record.displayServer != nil }

    /// The spans in which the app was drawing (``frameRateSpans``), none when it could not draw
    /// (``canDraw``).
    public var drawingSpans: [(start: UInt64, end: UInt64)] { canDraw ? frameRateSpans : [] }

    /// The spans (monotonic ns) in which the app was active and its main thread woke at a frame
    /// rate in every sample slice, each at least ``minimumDrawingSeconds`` long.
    public var frameRateSpans: [(start: UInt64, end: UInt64)] {
        let active = stateSpans.filter { $0.state == .active }
        guard !active.isEmpty else { return [] }
        let mainThreads = mainThreadIDs
        let samples = record.samples.sorted { $0.time < $1.time }
        var spans: [(start: UInt64, end: UInt64)] = []
        var current: (start: UInt64, end: UInt64)?
        func close() {
            if let span = current, Double(span.end - span.start) / 1e9 >= Self.minimumDrawingSeconds { spans.append(span) }
            current = nil
        }
        for (earlier, later) in zip(samples, samples.dropFirst()) where later.time > earlier.time {
            let seconds = Double(later.time - earlier.time) / 1e9
            let isActive = active.contains { $0.start <= earlier.time && later.time <= $0.end }
            let mainWakeups = Self.wakeupsByThread(from: earlier, to: later)
                .filter { mainThreads.contains($0.key) }.values.reduce(0, +)
            guard isActive, Double(mainWakeups) >= Self.lowestFrameRate * seconds else { close(); continue }
            if let span = current, span.end == earlier.time {
                current = (span.start, later.time)
            } else {
                close()
                current = (earlier.time, later.time)
            }
        }
        close()
        return spans
    }

    /// The main threads of the run's processes: on Linux a process's first thread has its pid as
    /// its thread id.
    var mainThreadIDs: Set<Int32> {
        var ids = Set(record.processes?.map(\.pid) ?? [])
        if let pid = record.pid { ids.insert(pid) }
        return ids
    }
}
