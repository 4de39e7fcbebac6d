import NIOCore

/// The first line a client sent on a connection the proxy refuses (offline, a `refuse` fault),
/// read before the reset so the refused attempt names its request (`WireFailureLedger`).
///
/// Without it a refused connection carried no request, and the ledger recovered an unnamed
/// refused attempt by any later request, and merged unnamed attempts of one outage into one
/// operation. An HTTP client writes its request as soon as it has connected (RFC 9112: the client
/// speaks first), so the line is in the first bytes; the proxy accepted the connection anyway
/// (the client sees the reset after its write, as it may have before), and waits for them at most
/// `deadline` — a client that writes nothing first (a server-speaks-first protocol) is reset then.
/// TLS is not read: its first bytes are a ClientHello, not a request.
struct RefusedRequest {
    /// Up to one request line and a little more: RFC 9112 recommends servers accept request
    /// lines of at least 8000 octets; targets here are far shorter, and a line not ended by then
    /// is not named.
    static let readLimit = 8192
    /// How long the proxy waits for the first bytes before resetting: a client on loopback that
    /// writes on connect has written in well under a millisecond; 100 ms is a margin for a
    /// loaded machine, short beside the seconds a refusal's retry backoff lasts.
    static let deadline = TimeAmount.milliseconds(100)

    private(set) var bytes: [UInt8] = []

    /// Adds what was read; true once the first line is whole (or too long to be one).
    mutating func add(_ buffer: ByteBuffer) -> Bool {
        bytes += buffer.readableBytesView.prefix(Self.readLimit - bytes.count)
        return bytes.contains(UInt8(ascii: "\n")) || bytes.count >= Self.readLimit
    }

    /// `POST /upload/note-1-0`, when the first line is an HTTP/1 request line; nil otherwise.
    var label: String? { Self.label(firstLineOf: bytes) }

    static func label(firstLineOf bytes: [UInt8]) -> String? {
        guard let end = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        var line = bytes[..<end]
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, String(decoding: parts[2], as: UTF8.self).hasPrefix("HTTP/1."),
              !parts[0].isEmpty, parts[0].allSatisfy({ (65...90).contains($0) }), !parts[1].isEmpty else { return nil }
        let method = String(decoding: parts[0], as: UTF8.self)
        var target = String(decoding: parts[1], as: UTF8.self)
        // An absolute-form target (a client that takes the proxy for a forward proxy): its path.
        if let scheme = target.range(of: "://"), let slash = target[scheme.upperBound...].firstIndex(of: "/") {
            target = String(target[slash...])
        }
        return "\(method) \(target)"
    }
}
