import Foundation

/// `frugal-workload-host --sync FSYNCS FDATASYNCS`: a plain program (no FrugalKit) that writes a
/// file in its temporary directory and forces it to storage FSYNCS times with `fsync` and
/// FDATASYNCS times with `fdatasync`, then exits 0: a known answer for the sync-call counters.
enum Syncer {
    static func run(fsyncs: Int, fdatasyncs: Int) -> Never {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        let path = "\(directory)/frugal-syncer-\(getpid())"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { exit(1) }
        var byte: UInt8 = 1
        for _ in 0..<fsyncs {
            _ = write(fd, &byte, 1)
            _ = fsync(fd)
        }
        for _ in 0..<fdatasyncs {
            _ = write(fd, &byte, 1)
            _ = fdatasync(fd)
        }
        close(fd)
        unlink(path)
        exit(0)
    }
}
