/// What `lifecycle.quiesce-when-inactive` judges of an interruption: every wakeup of the app's
/// threads while it was inactive, but those of the moments it was waiting on its own network
/// requests. The guide lists what to stop when the app resigns active and says what may go on:
/// "Suspend any dispatch queues or operation queues executing non-critical code. (You can
/// continue processing network requests and other time-sensitive background tasks while
/// inactive.)" A request in flight wakes its client's threads for its bytes, and on Linux far
/// more: swift-corelibs-foundation's `URLSession` woke libdispatch's manager thread about 65,000
/// times a second through a 1.5 MB download on a shaped 3G link, where iOS's URLSession does not.
/// A download running through a 2 s interruption scored 0 (65,682 wakeups a second), the guide's
/// own allowance failed. So the interruption is cut into the harness's `/proc` sample slices, as
/// a wait is for `power.avoid-polling`, and the slices with a request in flight (the same spans:
/// FrugalKit's client, the wire's requests to their hand-off, the proxy's connections) are left
/// out. A timer left running, a queue left working, a frame loop left drawing: still charged.
/// So are the moments the app was finishing what an input before the interruption started
/// (`RunAnalysis+Coalescing`): a notes app that cancels its debounced save and saves on
/// resigning active, as the guide asks, still has its cancelled `Task.sleep` timers fire in the
/// call that followed the typing (12 wakeups in a 4 s call, 3 a second, 0.61), then nothing.
extension RunAnalysis {
    /// One interruption's account.
    public struct InactiveAccount: Sendable {
        public var phase: Phase
        /// Seconds judged: the phase less the slices with a request in flight.
        public var judgedSeconds: Double
        /// Seconds left out: a network request in flight.
        public var requestSeconds: Double
        /// Seconds left out: finishing what an input before the interruption started.
        public var followUpSeconds: Double = 0
        /// Wakeups of every thread in the judged slices.
        public var wakeups: Int
        /// Of those, the platform's: libdispatch's manager thread up to its pool monitor's
        /// allowance over each stretch of contiguous judged slices.
        public var platformWakeups: Int
        /// The wakeups charged to the app.
        public var chargedWakeups: Int { max(0, wakeups - platformWakeups) }
    }

    /// The account of every interruption (``inactivePhases``).
    public var inactiveAccounts: [InactiveAccount] {
        let busy = busyIntervals
        let requests = busy.filter { $0.reason == .request }
        let followUps = busy.filter { $0.reason == .inputFollowUp }
        let platform = platformThreads
        return inactivePhases.map { phase in
            var account = InactiveAccount(phase: phase, judgedSeconds: 0, requestSeconds: 0, wakeups: 0, platformWakeups: 0)
            var stretch = PlatformStretch()
            for slice in sampleSlices(of: phase) {
                if requests.contains(where: { $0.start < slice.end && $0.end > slice.start }) {
                    account.requestSeconds += slice.seconds
                    account.platformWakeups += stretch.end().values.reduce(0, +)
                    continue
                }
                if followUps.contains(where: { $0.start < slice.end && $0.end > slice.start }) {
                    account.followUpSeconds += slice.seconds
                    account.platformWakeups += stretch.end().values.reduce(0, +)
                    continue
                }
                account.judgedSeconds += slice.seconds
                let byThread = Self.wakeupsByThread(from: slice.startSample, to: slice.endSample)
                account.wakeups += byThread.values.reduce(0, +)
                stretch.add(seconds: slice.seconds, platformWakeups: byThread.filter { platform.contains($0.key) })
            }
            account.platformWakeups += stretch.end().values.reduce(0, +)
            return account
        }
    }
}
