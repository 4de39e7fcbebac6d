// The process every built-in workload runs in. It uses the same entry point as a user's own
// app executable (`FrugalApp`): the harness selects the workload with FRUGAL_APP.
import Foundation
import FrugalKit
import FrugalWorkloads

@main
enum WorkloadHost: FrugalApp {
    static var apps: [AppEntry] {
        WorkloadCatalogue.all.map { workload in AppEntry(workload.name, makeDelegate: workload.makeDelegate) }
    }

    static func main() {
        // `--balloon BYTES` is the harness's memory hog, not an app.
        let arguments = CommandLine.arguments
        if arguments.count == 3, arguments[1] == "--balloon", let bytes = Int(arguments[2]), bytes > 0 {
            Balloon.run(bytes: bytes)
        }
        // `--wake RATE SECONDS` is a plain program with a known number of wakeups, for black-box tests.
        if arguments.count == 4, arguments[1] == "--wake", let rate = Double(arguments[2]), let seconds = Double(arguments[3]),
           rate > 0, seconds > 0 {
            Waker.run(rate: rate, seconds: seconds)
        }
        // `--block spin|poll LEAD SECONDS TAIL` blocks its main thread once, for the outside hang watch's tests.
        if arguments.count == 6, arguments[1] == "--block", let lead = Double(arguments[3]), let seconds = Double(arguments[4]),
           let tail = Double(arguments[5]), lead >= 0, seconds > 0, tail >= 0 {
            Blocker.run(kind: arguments[2], lead: lead, seconds: seconds, tail: tail)
        }
        // `--cache frees|keeps MIB` holds a cache it frees (or keeps) on SIGUSR1, for the program memory audits' tests.
        if arguments.count == 4, arguments[1] == "--cache", ["frees", "keeps"].contains(arguments[2]), let mebibytes = Int(arguments[3]),
           mebibytes > 0, mebibytes <= 4096 {
            WarningCache.run(frees: arguments[2] == "frees", mebibytes: mebibytes)
        }
        // `--sync FSYNCS FDATASYNCS` forces a file to storage a known number of times.
        if arguments.count == 4, arguments[1] == "--sync", let fsyncs = Int(arguments[2]), let fdatasyncs = Int(arguments[3]),
           fsyncs >= 0, fdatasyncs >= 0 {
            Syncer.run(fsyncs: fsyncs, fdatasyncs: fdatasyncs)
        }
        Application.main(apps: apps)
    }
}
