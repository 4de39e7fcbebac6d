import Foundation

/// Polls `condition` until it holds or `timeout` seconds of real time pass; returns whether it held.
///
/// For events the code under test gives no signal of (a trace entry recorded on a proxy's event
/// loop, a process joining a cgroup): the poll ends as soon as the event has happened, so the
/// generous timeout costs nothing when things work and only bounds a test that would hang.
func eventually(timeout: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(5_000)
    }
    return condition()
}
