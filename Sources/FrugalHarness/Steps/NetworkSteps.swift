import Foundation
import FrugalCore
import FrugalProbe

/// The network steps: change the link conditions, inject a fault into the next connections.
enum NetworkSteps {
    static func network(_ session: RunSession, _ profileName: String, index: Int, start: UInt64) {
        guard let profile = NetworkProfile.named(profileName) else {
            let known = NetworkProfile.builtIns.map(\.name).joined(separator: ", ")
            session.record(.network(profile: profileName), index: index, start: start, problem: "unknown network profile '\(profileName)' (known: \(known))")
            return
        }
        guard let network = session.network else {
            session.record(.network(profile: profileName), index: index, start: start, problem: "no shaping proxy runs for this workload")
            return
        }
        network.setProfile(profile)
        session.record(.network(profile: profileName), index: index, start: start)
    }

    static func fault(_ session: RunSession, _ kind: String, index: Int, start: UInt64) {
        guard let (fault, connections) = RunNetwork.fault(named: kind) else {
            session.record(.fault(kind: kind), index: index, start: start,
                           problem: "unknown fault '\(kind)' (known: reset, reset-response, stall, refuse, each optionally KIND:N)")
            return
        }
        guard let network = session.network else {
            session.record(.fault(kind: kind), index: index, start: start, problem: "no shaping proxy runs for this workload")
            return
        }
        network.inject(fault, connections: connections, kind: kind)
        session.record(.fault(kind: kind), index: index, start: start)
    }
}
