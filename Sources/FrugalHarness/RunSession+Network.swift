import Foundation
import FrugalCore
import FrugalProbe

/// The network steps: change the link conditions, inject a fault into the next connections.
extension RunSession {
    func network(_ profileName: String, index: Int, start: UInt64) {
        guard let profile = NetworkProfile.named(profileName) else {
            let known = NetworkProfile.builtIns.map(\.name).joined(separator: ", ")
            record(.network(profile: profileName), index: index, start: start, problem: "unknown network profile '\(profileName)' (known: \(known))")
            return
        }
        guard let network else {
            record(.network(profile: profileName), index: index, start: start, problem: "no shaping proxy runs for this workload")
            return
        }
        network.setProfile(profile)
        record(.network(profile: profileName), index: index, start: start)
    }

    func fault(_ kind: String, index: Int, start: UInt64) {
        guard let (fault, connections) = RunNetwork.fault(named: kind) else {
            record(.fault(kind: kind), index: index, start: start,
                   problem: "unknown fault '\(kind)' (known: reset, reset-response, stall, refuse, each optionally KIND:N)")
            return
        }
        guard let network else {
            record(.fault(kind: kind), index: index, start: start, problem: "no shaping proxy runs for this workload")
            return
        }
        network.inject(fault, connections: connections, kind: kind)
        record(.fault(kind: kind), index: index, start: start)
    }
}
