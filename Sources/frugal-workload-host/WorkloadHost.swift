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
        Application.main(apps: apps)
    }
}
