import Foundation

/// `frugal-workload-host --cache frees|keeps MIB`: a plain program (no FrugalKit) that holds a cache
/// of MIB MiB (touched, so it is resident) and waits for signals in `sigwait`: SIGUSR1 is its memory
/// warning — `frees` gives the cache back (`free` of an allocation this large is a `munmap`), `keeps`
/// does nothing — SIGUSR2 its input (it answers on stdout), SIGTERM ends it. The twins the memory
/// audits judge as a program configured with `memoryWarningSignal: USR1`, `inputSignal: USR2`.
enum WarningCache {
    static func run(frees: Bool, mebibytes: Int) -> Never {
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGUSR1, SIGUSR2, SIGTERM] { sigaddset(&signals, signal) }
        // Blocked before anything else, so a signal that comes early waits for the sigwait.
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let bytes = mebibytes << 20
        var cache: UnsafeMutableRawPointer? = malloc(bytes)
        if let cache { memset(cache, 0x5a, bytes) }
        var inputs = 0
        while true {
            var received: Int32 = 0
            guard sigwait(&signals, &received) == 0 else { continue }
            switch received {
            case SIGUSR1:
                if frees, let held = cache {
                    free(held)
                    cache = nil
                }
            case SIGUSR2:
                inputs += 1
                let line = Array("input \(inputs)\n".utf8)
                _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            default:
                exit(0)
            }
        }
    }
}
