import Foundation

/// A program started the plainest way, for tests that compare Frugal's measure of a run with it:
/// `posix_spawn` (vfork and exec, no stub, no cgroup) from the test process, waited for there.
public enum DirectSpawn {
    /// `command`'s wall time in seconds, from just before `posix_spawn` to its reaping, on
    /// `CLOCK_MONOTONIC`, once per `times`. Both ends are a blocked thread's wakeup, which a loaded
    /// machine delays by tens of ms in any one run: callers compare the fastest. Nil for a run
    /// whose spawn failed (the program is not there).
    public static func wallSeconds(of command: [String], times: Int) -> [Double?] {
        (0..<times).map { _ in
            let argv = command.map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            var pid: pid_t = 0
            var start = timespec(), end = timespec()
            clock_gettime(CLOCK_MONOTONIC, &start)
            guard posix_spawn(&pid, command[0], nil, nil, argv, environ) == 0 else { return nil }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            clock_gettime(CLOCK_MONOTONIC, &end)
            return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
        }
    }
}
