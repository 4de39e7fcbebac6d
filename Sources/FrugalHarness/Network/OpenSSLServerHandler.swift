import CFrugalTLS
import COpenSSL
import NIOCore
import NIOTLS

/// Why a TLS connection the origin terminated failed (fired inbound, then the channel closes).
enum TLSTerminationError: Error, CustomStringConvertible, Sendable {
    /// The handshake failed: OpenSSL's reason, and the alert the client sent when OpenSSL
    /// received one (a client refusing the certificate says why in an alert).
    case handshakeFailed(OpenSSLError)
    /// A TLS error after the handshake (a bad record, an alert other than close_notify).
    case connectionFailed(OpenSSLError)

    var description: String {
        switch self {
        case let .handshakeFailed(error): "TLS handshake failed: \(error.reason)"
        case let .connectionFailed(error): "TLS connection failed: \(error.reason)"
        }
    }
}

/// Terminates TLS on a channel, server side, with the system's OpenSSL: the encrypted bytes come
/// in and go out as `ByteBuffer`s on this side, the plain ones on the other. OpenSSL never sees
/// the socket: the bytes received are written into a memory BIO it reads, and what it writes to
/// its other memory BIO (handshake, records, alerts) is written to the channel. So the whole
/// engine runs on the channel's event loop, one call at a time.
///
/// Inbound, the handler fires `TLSUserEvent.handshakeCompleted` (with the ALPN protocol chosen)
/// when the handshake ends, the decrypted bytes after it, and a ``TLSTerminationError`` when the
/// handshake or the connection fails (the channel is then closed, after OpenSSL's own alert to
/// the client). Outbound, writes before the handshake completes wait for it; a close sends
/// close_notify first. A client's close_notify is answered with one and the channel closed.
final class OpenSSLServerHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum State { case handshaking, open, closed }

    /// Kept so the `SSL_CTX` outlives the connection made from it.
    private let serverContext: TLSServerContext
    private let connection: OpaquePointer
    /// The BIO OpenSSL reads the received bytes from, and the one it writes what to send to;
    /// both owned by `connection`.
    private let received: OpaquePointer
    private let toSend: OpaquePointer
    private var state = State.handshaking
    /// Writes that came before the handshake completed, sent when it does.
    private var waitingWrites: [(ByteBuffer, EventLoopPromise<Void>?)] = []
    /// The largest plain piece read at once: one TLS record's worth.
    private static let readSize = 16 << 10

    /// A server connection of `context`.
    init(context: TLSServerContext) throws {
        var received: OpaquePointer?
        var toSend: OpaquePointer?
        guard let connection = frugal_tls_new_server(context.pointer, &received, &toSend), let received, let toSend else {
            throw OpenSSLError.drain("SSL_new")
        }
        serverContext = context
        self.connection = connection
        self.received = received
        self.toSend = toSend
    }

    deinit { SSL_free(connection) }

    // MARK: Inbound

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard state != .closed else { return }
        let buffer = unwrapInboundIn(data)
        let stored = buffer.withUnsafeReadableBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let written = BIO_write(received, raw.baseAddress! + offset, Int32(min(raw.count - offset, Int(Int32.max))))
                guard written > 0 else { return false }
                offset += Int(written)
            }
            return true
        }
        guard stored else {
            fail(.connectionFailed(OpenSSLError.drain("BIO_write")), context: context)
            return
        }
        advance(context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        state = .closed
        failWaitingWrites(ChannelError.ioOnClosedChannel)
        context.fireChannelInactive()
    }

    /// Runs the handshake on what has come, then reads the plain bytes that follow it.
    private func advance(context: ChannelHandlerContext) {
        if state == .handshaking {
            ERR_clear_error()
            let result = SSL_do_handshake(connection)
            guard result == 1 else {
                let error = SSL_get_error(connection, result)
                if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE {
                    sendOutput(context: context, flush: true, promise: nil)
                } else {
                    fail(.handshakeFailed(OpenSSLError.drain("SSL_do_handshake")), context: context)
                }
                return
            }
            state = .open
            sendOutput(context: context, flush: true, promise: nil)
            context.fireUserInboundEventTriggered(TLSUserEvent.handshakeCompleted(negotiatedProtocol: negotiatedProtocol()))
            let waiting = waitingWrites
            waitingWrites = []
            for (buffer, promise) in waiting { write(buffer, promise: promise, context: context) }
            if !waiting.isEmpty { context.flush() }
        }
        readPlainBytes(context: context)
    }

    /// Fires the decrypted bytes OpenSSL has, a record at a time, until it wants more input.
    private func readPlainBytes(context: ChannelHandlerContext) {
        while state == .open {
            var buffer = context.channel.allocator.buffer(capacity: Self.readSize)
            var result: Int32 = 0
            ERR_clear_error()
            buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: Self.readSize) { raw in
                result = SSL_read(connection, raw.baseAddress, Int32(min(raw.count, Int(Int32.max))))
                return max(0, Int(result))
            }
            if result > 0 {
                context.fireChannelRead(wrapInboundOut(buffer))
                continue
            }
            switch SSL_get_error(connection, result) {
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
                // Reading may have made something to send (a key update's answer).
                sendOutput(context: context, flush: true, promise: nil)
                return
            case SSL_ERROR_ZERO_RETURN:
                // The client's close_notify: answer it and close.
                close(context: context, mode: .all, promise: nil)
                return
            default:
                fail(.connectionFailed(OpenSSLError.drain("SSL_read")), context: context)
                return
            }
        }
    }

    /// The ALPN protocol chosen in the handshake, if any.
    private func negotiatedProtocol() -> String? {
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(connection, &data, &length)
        guard let data, length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    // MARK: Outbound

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        write(unwrapOutboundIn(data), promise: promise, context: context)
    }

    func flush(context: ChannelHandlerContext) {
        context.flush()
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if mode == .all && state != .closed {
            if state == .open {
                // close_notify, sent ahead of the close; the client's answer is not waited for.
                ERR_clear_error()
                _ = SSL_shutdown(connection)
                sendOutput(context: context, flush: true, promise: nil)
            }
            state = .closed
            failWaitingWrites(ChannelError.ioOnClosedChannel)
        }
        context.close(mode: mode, promise: promise)
    }

    /// Encrypts `buffer` and writes the records (not flushed), or keeps it for after the handshake.
    private func write(_ buffer: ByteBuffer, promise: EventLoopPromise<Void>?, context: ChannelHandlerContext) {
        switch state {
        case .handshaking:
            waitingWrites.append((buffer, promise))
        case .closed:
            promise?.fail(ChannelError.ioOnClosedChannel)
        case .open:
            // An empty write (the end of a body) has nothing to encrypt, but its promise still
            // says when what came before it was written.
            guard buffer.readableBytes > 0 else {
                context.write(wrapOutboundOut(buffer), promise: promise)
                return
            }
            ERR_clear_error()
            let complete = buffer.withUnsafeReadableBytes { raw -> Bool in
                var offset = 0
                while offset < raw.count {
                    // With memory BIOs a write takes all it is given (or fails): no partial writes.
                    let written = SSL_write(connection, raw.baseAddress! + offset, Int32(min(raw.count - offset, Int(Int32.max))))
                    guard written > 0 else { return false }
                    offset += Int(written)
                }
                return true
            }
            guard complete else {
                let error = OpenSSLError.drain("SSL_write")
                promise?.fail(error)
                fail(.connectionFailed(error), context: context)
                return
            }
            sendOutput(context: context, flush: false, promise: promise)
        }
    }

    /// Writes what OpenSSL has to send to the channel; completes `promise` when that is written.
    private func sendOutput(context: ChannelHandlerContext, flush: Bool, promise: EventLoopPromise<Void>?) {
        let pending = Int(BIO_ctrl_pending(toSend))
        guard pending > 0 else {
            if flush { context.flush() }
            promise?.succeed(())
            return
        }
        var buffer = context.channel.allocator.buffer(capacity: pending)
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: pending) { raw in
            max(0, Int(BIO_read(toSend, raw.baseAddress, Int32(min(raw.count, Int(Int32.max))))))
        }
        if flush {
            context.writeAndFlush(wrapOutboundOut(buffer), promise: promise)
        } else {
            context.write(wrapOutboundOut(buffer), promise: promise)
        }
    }

    // MARK: Failure

    /// Sends what OpenSSL wrote (its alert to the client), reports `error` inbound and closes.
    private func fail(_ error: TLSTerminationError, context: ChannelHandlerContext) {
        guard state != .closed else { return }
        sendOutput(context: context, flush: true, promise: nil)
        state = .closed
        failWaitingWrites(error)
        context.fireErrorCaught(error)
        context.close(promise: nil)
    }

    private func failWaitingWrites(_ error: Error) {
        let waiting = waitingWrites
        waitingWrites = []
        for (_, promise) in waiting { promise?.fail(error) }
    }
}
