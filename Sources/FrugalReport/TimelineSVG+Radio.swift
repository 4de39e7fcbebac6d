import Foundation
import FrugalCore

extension TimelineSVG {
    static func radioColor(_ state: RadioState) -> String {
        switch state {
        case .promotion: return "#ff7043"
        case .active: return "#d32f2f"
        case .tail: return "#ffca28"
        case .idle: return "#eceff1"
        }
    }

    /// The radio lane: states as blocks (idle pale), requests as thin bars above them, failed
    /// ones in black.
    static func radioLane(_ radio: RadioLane, top: Double, x: (Double) -> Double) -> String {
        func f(_ value: Double) -> String { String(format: "%.1f", value) }
        var svg = ""
        for interval in radio.intervals {
            let start = x(interval.start), end = x(interval.end)
            let bytes = interval.uplinkBytes + interval.downlinkBytes
            let title = HTMLEscaping.escape("\(interval.rrcState) \(f(interval.start))–\(f(interval.end)) s, \(DisplayFormat.number(interval.joules)) J"
                + (bytes > 0 ? ", \(interval.uplinkBytes) B up, \(interval.downlinkBytes) B down" : "") + " (\(radio.profile))")
            svg += "<rect x=\"\(f(start))\" y=\"\(f(top + 10))\" width=\"\(f(max(1, end - start)))\" height=\"12\" fill=\"\(radioColor(interval.state))\"><title>\(title)</title></rect>"
        }
        for transfer in radio.transfers {
            let start = x(transfer.start), end = x(transfer.end)
            let color = transfer.outcome == .completed ? "#1565c0" : "#212121"
            let title = HTMLEscaping.escape("\(transfer.label): \(transfer.outcome.rawValue)\(transfer.error.map { " (\($0))" } ?? ""), "
                + "\(transfer.bytesSent) B sent, \(transfer.bytesReceived) B received, \(DisplayFormat.number((transfer.end - transfer.start) * 1000)) ms")
            svg += "<rect x=\"\(f(start))\" y=\"\(f(top + 3))\" width=\"\(f(max(1.5, end - start)))\" height=\"5\" fill=\"\(color)\"><title>\(title)</title></rect>"
        }
        return svg
    }
}
