import FrugalCore
import FrugalProbe
import NIOCore
import NIOTLS

/// HTTPS through the proxy: the origin answers `CONNECT host:port` itself (the shaping proxy
/// forwards every connection to it), then terminates TLS on that connection with a leaf
/// certificate for `host` signed by the run's CA, and serves the decrypted requests with the
/// same HTTP handlers as plain ones. The shaping proxy sits between the app and this, so what
/// it shapes and counts is the encrypted bytes: the real bytes on the wire, TLS records,
/// handshake and all.
///
/// Installed first in each origin connection's pipeline; it looks at the first bytes only:
/// a connection that does not start with `CONNECT ` is passed on untouched (the handler
/// removes itself), so plain requests cost one look.
///
/// The certificate is chosen from the `CONNECT` authority, not from SNI: it is what every proxy
/// client sends, and it names IP addresses too, for which a client sends no SNI.
final class ConnectTunnelHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// A `CONNECT` head longer than this is refused (400) and the connection closed.
    static let maximumHeadBytes = 16 << 10
    private static let prefix = Array("CONNECT ".utf8)

    private let authority: RunCertificateAuthority
    private var buffered: ByteBuffer?

    init(authority: RunCertificateAuthority) {
        self.authority = authority
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        if buffered == nil {
            buffered = incoming
        } else {
            buffered!.writeBuffer(&incoming)
        }
        guard let bytes = buffered else { return }
        let view = bytes.readableBytesView
        let compared = min(view.count, Self.prefix.count)
        guard view.prefix(compared).elementsEqual(Self.prefix.prefix(compared)) else {
            passOn(context: context)
            return
        }
        if let end = Self.headEnd(view) {
            openTunnel(head: String(decoding: view.prefix(end), as: UTF8.self), leftover: view.count - end, context: context)
        } else if view.count > Self.maximumHeadBytes {
            refuse("431 Request Header Fields Too Large", context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        // Closed before the first bytes decided anything: let the HTTP handlers see what came.
        if let bytes = buffered {
            buffered = nil
            context.fireChannelRead(wrapInboundOut(bytes))
        }
        context.fireChannelInactive()
    }

    /// Not a tunnel: hand the bytes to the HTTP handlers and step out of the way.
    private func passOn(context: ChannelHandlerContext) {
        if let bytes = buffered {
            buffered = nil
            context.fireChannelRead(wrapInboundOut(bytes))
        }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    /// `CONNECT host:port HTTP/1.x` read: answer 200 in clear, then put TLS in front of the HTTP handlers.
    private func openTunnel(head: String, leftover: Int, context: ChannelHandlerContext) {
        let requestLine = head.split(separator: "\r\n", maxSplits: 1).first.map(String.init) ?? ""
        let parts = requestLine.split(separator: " ")
        guard parts.count == 3, let target = Self.hostAndPort(String(parts[1])) else {
            refuse("400 Bad Request", context: context)
            return
        }
        let tls: OpenSSLServerHandler
        do {
            tls = try OpenSSLServerHandler(context: try authority.context(forHost: target.host))
        } catch {
            authority.record(TLSHandshakeRecord(time: 0, host: target.host, port: target.port, outcome: .failed,
                                                detail: "the run's CA could not make a certificate: \(error)"), at: MonotonicClock.now())
            refuse("502 Bad Gateway", context: context)
            return
        }
        do {
            let response = context.channel.allocator.buffer(string: "HTTP/1.1 200 Connection Established\r\n\r\n")
            context.writeAndFlush(wrapOutboundOut(response), promise: nil)
            let alerts = TLSAlertSniffer()
            let observer = TLSHandshakeObserver(authority: authority, host: target.host, port: target.port, alerts: alerts)
            try context.pipeline.syncOperations.addHandlers([alerts, tls, observer], position: .after(self))
        } catch {
            refuse("500 Internal Server Error", context: context)
            return
        }
        // Bytes the client sent past the head (a ClientHello it did not wait to send) are TLS.
        if var rest = buffered, leftover > 0 {
            rest.moveReaderIndex(forwardBy: rest.readableBytes - leftover)
            context.fireChannelRead(wrapInboundOut(rest))
        }
        buffered = nil
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    private func refuse(_ status: String, context: ChannelHandlerContext) {
        buffered = nil
        let response = context.channel.allocator.buffer(string: "HTTP/1.1 \(status)\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(response)).whenComplete { _ in channel.close(promise: nil) }
    }

    /// The index just past the head's blank line, if it has arrived.
    static func headEnd(_ view: ByteBufferView) -> Int? {
        let bytes = Array(view.prefix(maximumHeadBytes + 4))
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count where bytes[index] == 10 && bytes[index - 1] == 13 && bytes[index - 2] == 10 && bytes[index - 3] == 13 {
            return index + 1
        }
        return nil
    }

    /// `host:port` or `[v6]:port` of a `CONNECT` target; nil when malformed.
    static func hostAndPort(_ target: String) -> (host: String, port: Int)? {
        guard let colon = target.lastIndex(of: ":"), let port = Int(target[target.index(after: colon)...]),
              (1...65535).contains(port) else { return nil }
        let host = RunCertificateAuthority.normalized(String(target[..<colon]))
        guard !host.isEmpty, !host.contains(" ") else { return nil }
        return (host, port)
    }
}

/// Fired inbound, after the TLS handshake of a `CONNECT` tunnel completed, to the HTTP handlers
/// that serve the requests inside it (an `OriginHandler` may record them as HTTPS to `host`).
struct TLSTunnelEvent: Sendable, Equatable {
    /// The `CONNECT` target's host (lower-case, no brackets) and port.
    var host: String
    var port: Int
}

/// Sits just after the TLS handler of a tunnel: records how its handshake ended, and whether a
/// client that completed it then sent anything (one that hangs up without a request after the
/// handshake has most likely refused the certificate by a check of its own, a pin).
final class TLSHandshakeObserver: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let authority: RunCertificateAuthority
    private let host: String
    private let port: Int
    private let alerts: TLSAlertSniffer
    private var completed = false
    private var sawRequestBytes = false
    private var recorded = false

    init(authority: RunCertificateAuthority, host: String, port: Int, alerts: TLSAlertSniffer) {
        self.authority = authority
        self.host = host
        self.port = port
        self.alerts = alerts
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !sawRequestBytes {
            sawRequestBytes = true
            record(.completed, detail: nil)
        }
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        context.fireUserInboundEventTriggered(event)
        if let event = event as? TLSUserEvent, case .handshakeCompleted = event {
            completed = true
            alerts.stop()
            // The HTTP handlers after this one learn that their requests came through a tunnel, and for which host.
            context.fireUserInboundEventTriggered(TLSTunnelEvent(host: host, port: port))
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if !completed, let error = error as? TLSTerminationError, case let .handshakeFailed(failure) = error {
            // The client's alert as it crossed the wire wins, then the one OpenSSL reports
            // receiving: a TLS 1.3 client sends its alert in clear or encrypted depending on how
            // far it got, and a server library may report a clear one as a bad record instead.
            if let alert = alerts.alert ?? failure.peerAlert {
                let (outcome, detail) = Self.describe(alert: alert)
                record(outcome, detail: detail)
            } else {
                record(.failed, detail: "TLS handshake failed: \(failure.reason)")
            }
        }
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if completed && !sawRequestBytes {
            record(.closedWithoutRequest, detail: "the client completed the handshake, then closed the connection without sending a request")
        } else if !completed {
            if let alert = alerts.alert {
                let (outcome, detail) = Self.describe(alert: alert)
                record(outcome, detail: detail)
            } else {
                hungUp()
            }
        }
        context.fireChannelInactive()
    }

    /// The client closed during the handshake without an alert: after its ClientHello (so after
    /// it had the server's certificate, which TLS 1.3 sends in reply) that is a client checking
    /// the certificate itself and hanging up, as curl does on a pin mismatch; before, nothing was tried.
    private func hungUp() {
        if alerts.sawHandshake {
            record(.closedWithoutRequest, detail: "the client closed the connection after it received the certificate, without a TLS alert and without a request")
        } else {
            record(.failed, detail: "the client closed the connection before its TLS handshake")
        }
    }

    private func record(_ outcome: TLSHandshakeRecord.Outcome, detail: String?) {
        guard !recorded else { return }
        recorded = true
        authority.record(TLSHandshakeRecord(time: 0, host: host, port: port, outcome: outcome, detail: detail), at: MonotonicClock.now())
    }

    /// TLS alert descriptions (RFC 8446 §6): those that refuse the certificate, then others.
    static let certificateAlerts: [UInt8: String] = [
        42: "bad certificate", 43: "unsupported certificate", 44: "certificate revoked", 45: "certificate expired",
        46: "certificate unknown", 48: "unknown CA", 49: "access denied", 116: "certificate required",
    ]
    static let otherAlerts: [UInt8: String] = [
        0: "close notify", 10: "unexpected message", 20: "bad record MAC", 40: "handshake failure", 47: "illegal parameter",
        50: "decode error", 51: "decrypt error", 70: "protocol version", 71: "insufficient security", 80: "internal error",
        86: "inappropriate fallback", 90: "user canceled", 109: "missing extension", 110: "unsupported extension",
        112: "unrecognized name", 120: "no application protocol",
    ]

    /// A refusal when the client's alert was about the certificate, a failure otherwise.
    static func describe(alert: UInt8) -> (TLSHandshakeRecord.Outcome, String) {
        if let name = certificateAlerts[alert] { return (.refused, "the client sent the TLS alert '\(name)'") }
        return (.failed, "the client sent the TLS alert '\(otherAlerts[alert] ?? "alert \(alert)")'")
    }
}

/// Sits just before the TLS handler of a tunnel, on the bytes as they crossed the wire, until the
/// handshake completes: it walks the TLS record headers and keeps the description of the first
/// alert record sent in clear (content type 21, two bytes long). The bytes pass unchanged.
final class TLSAlertSniffer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// The first clear alert's description byte, if one came.
    private(set) var alert: UInt8?
    /// Whether a handshake record (the ClientHello) came.
    private(set) var sawHandshake = false
    /// Bytes of the current record's header read so far, and the record body bytes left to skip.
    private var header: [UInt8] = []
    private var skip = 0
    private var stopped = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !stopped { scan(unwrapInboundIn(data)) }
        context.fireChannelRead(data)
    }

    /// Stops looking (the handshake completed: later alerts are encrypted, and the data is the app's).
    func stop() { stopped = true }

    private func scan(_ buffer: ByteBuffer) {
        let bytes = buffer.readableBytesView
        var index = bytes.startIndex
        while index < bytes.endIndex && alert == nil {
            if skip > 0 {
                let step = min(skip, bytes.endIndex - index)
                skip -= step
                index += step
                continue
            }
            header.append(bytes[index])
            index += 1
            // Header: type, version (2), length (2); an alert record's body is level, description.
            if header.count == 5 {
                if header[0] == 22 { sawHandshake = true }
                let length = Int(header[3]) << 8 | Int(header[4])
                if header[0] == 21 && length == 2 {
                    // Read the two bytes in place when they are here; else wait for them.
                    skip = 0
                } else {
                    skip = length
                    header = []
                }
            } else if header.count == 7 {
                alert = header[6]
                header = []
            }
        }
    }
}
