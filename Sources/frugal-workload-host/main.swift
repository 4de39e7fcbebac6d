// The process every built-in workload runs in: `frugal-workload-host NAME`.
import Foundation
import FrugalKit
import FrugalWorkloads

let arguments = CommandLine.arguments
if arguments.count == 3, arguments[1] == "--balloon", let bytes = Int(arguments[2]), bytes > 0 {
    Balloon.run(bytes: bytes)
}
if arguments.count == 4, arguments[1] == "--wake", let rate = Double(arguments[2]), let seconds = Double(arguments[3]), rate > 0, seconds > 0 {
    Waker.run(rate: rate, seconds: seconds)
}
guard arguments.count == 2, let workload = WorkloadCatalogue.named(arguments[1]) else {
    let known = WorkloadCatalogue.all.map(\.name).joined(separator: ", ")
    FileHandle.standardError.write(Data("usage: frugal-workload-host NAME (one of: \(known))\n".utf8))
    exit(1)
}
Application.run(name: workload.name, delegate: workload.makeDelegate())
