import Foundation
import FrugalCore

extension TimelineSVG {
    static func radioClass(_ state: RadioState) -> String {
        switch state {
        case .promotion: return "r-promotion"
        case .active: return "r-active"
        case .tail: return "r-tail"
        case .idle: return "r-idle"
        }
    }

    /// The radio lane: states as blocks in colours of their own (no other lane uses them; idle
    /// pale), requests as thin bars above them, failed ones in black.
    static func radioLane(_ radio: RadioLane, top: Double, x: (Double) -> Double) -> String {
        var svg = ""
        for interval in radio.intervals {
            let start = x(interval.start), end = x(interval.end)
            let bytes = interval.uplinkBytes + interval.downlinkBytes
            let title = e("\(interval.rrcState) \(f(interval.start))–\(f(interval.end)) s, \(HumanUnits.scaledSI(interval.joules, unit: "J"))"
                + (bytes > 0 ? ", \(HumanUnits.bytes(Double(interval.uplinkBytes))) up, \(HumanUnits.bytes(Double(interval.downlinkBytes))) down" : "") + " (\(radio.profile))")
            svg += "<rect x=\"\(f(start))\" y=\"\(f(top + 10))\" width=\"\(f(max(1, end - start)))\" height=\"12\" class=\"\(radioClass(interval.state))\"><title>\(title)</title></rect>"
        }
        for transfer in radio.transfers {
            let start = x(transfer.start), end = x(transfer.end)
            let title = e("\(transfer.label): \(transfer.outcome.rawValue)\(transfer.error.map { " (\($0))" } ?? ""), "
                + "\(HumanUnits.bytes(Double(transfer.bytesSent))) sent, \(HumanUnits.bytes(Double(transfer.bytesReceived))) received, \(HumanUnits.seconds(transfer.end - transfer.start))")
            svg += "<rect x=\"\(f(start))\" y=\"\(f(top + 3))\" width=\"\(f(max(1.5, end - start)))\" height=\"5\" class=\"\(transfer.outcome == .completed ? "tr" : "tr-failed")\"><title>\(title)</title></rect>"
        }
        return svg
    }
}
