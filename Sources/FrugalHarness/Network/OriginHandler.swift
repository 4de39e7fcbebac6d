import FrugalCore
import FrugalProbe
import NIOCore
import NIOHTTP1

/// Answers one connection's requests, one at a time in the order they arrived (pipelined ones
/// wait their turn): asks the server's ``OriginResponder``, applies the client's
/// `Accept-Encoding` and `If-None-Match` (``ResponseEncoding``), and streams the body as fast as
/// the socket takes it. Every request goes into the server's ``WireRequestLog``.
///
/// The pipeline above it only has to deliver `HTTPServerRequestPart`s, so requests that arrive
/// inside a TLS connection the origin terminated flow through it unchanged.
final class OriginHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// A request being read, then waiting for its answer.
    private struct Incoming {
        var head: HTTPRequestHead
        var path: String
        var bodyBytes = 0
        var body: [UInt8] = []
        var deflate: DeflateCounter?
        var startNs: UInt64
        var uplinkOffset: Int
        var reused: Bool
    }

    /// A response being written.
    private struct Outgoing {
        var body: BodySource
        var keepAlive: Bool
        var path: String
        var deflate: DeflateCounter?
        var logIndex: Int
    }

    private let recorder: OriginStatisticsRecorder
    private let measuresCompressibility: Bool
    private let responder: any OriginResponder
    private let log: WireRequestLog
    private let wire: ConnectionWire
    private var reading: Incoming?
    /// Whole requests waiting for their turn; the first is being answered when `busy`.
    private var queue: [Incoming] = []
    private var busy = false
    private var response: Outgoing?
    /// The client half-closed: answer what is in flight, then close.
    private var inputClosed = false

    init(recorder: OriginStatisticsRecorder, measuresCompressibility: Bool = false, responder: any OriginResponder = SyntheticResponder(),
         log: WireRequestLog = WireRequestLog(), wire: ConnectionWire = ConnectionWire(number: 0)) {
        self.recorder = recorder
        self.measuresCompressibility = measuresCompressibility
        self.responder = responder
        self.log = log
        self.wire = wire
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case let .head(head):
            let parsed = OriginRequest(method: head.method.rawValue, target: head.uri, headers: [])
            reading = Incoming(head: head, path: parsed.path, deflate: measuresCompressibility ? DeflateCounter() : nil,
                               startNs: MonotonicClock.now(), uplinkOffset: wire.readAtLastRequestEnd, reused: wire.requests > 0)
            wire.requests += 1
        case let .body(buffer):
            reading?.bodyBytes += buffer.readableBytes
            reading?.deflate?.feed(buffer)
            if let kept = reading?.body.count, kept < OriginRequest.bodyLimit {
                reading?.body += buffer.getBytes(at: buffer.readerIndex, length: min(buffer.readableBytes, OriginRequest.bodyLimit - kept)) ?? []
            }
        case .end:
            wire.readAtLastRequestEnd = wire.bytesRead
            if let request = reading {
                reading = nil
                if request.bodyBytes > 0, let deflated = request.deflate?.finish() {
                    recorder.deflated(path: request.path, bytes: request.bodyBytes, deflated: deflated)
                }
                queue.append(request)
                answerNext(context: context)
            }
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            inputClosed = true
            if response != nil {
                response?.keepAlive = false
            } else if reading == nil && queue.isEmpty {
                context.close(promise: nil)
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if response != nil { sendBody(context: context) }
        context.fireChannelWritabilityChanged()
    }

    /// Asks the responder for the first waiting request's answer, unless one is being answered.
    private func answerNext(context: ChannelHandlerContext) {
        guard !busy, let request = queue.first else { return }
        busy = true
        let headers = request.head.headers.map { (name: $0.name, value: $0.value) }
        let parsed = OriginRequest(method: request.head.method.rawValue, target: request.head.uri, headers: headers,
                                   body: request.body, bodyBytes: request.bodyBytes)
        responder.respond(to: parsed, on: context.eventLoop).hop(to: context.eventLoop).assumeIsolated().whenComplete { result in
            let answer: OriginResponse
            switch result {
            case .success(let value): answer = value
            case .failure(let error):
                answer = .text(502, "frugal: the server behind the origin failed: \(error)\n", source: .upstream,
                               detail: "the server behind the origin failed: \(error)")
            }
            guard answer.delayMilliseconds > 0 else {
                self.respond(to: request, parsed: parsed, with: answer, context: context)
                return
            }
            // Every source bounds its delay; the conversion is bounded here too, so no answer traps.
            let delay = min(answer.delayMilliseconds, ServerSettings.Timing.maximumMilliseconds)
            context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(Int64(delay * 1_000_000))) {
                self.respond(to: request, parsed: parsed, with: answer, context: context)
            }
        }
    }

    private func respond(to request: Incoming, parsed: OriginRequest, with answer: OriginResponse, context: ChannelHandlerContext) {
        let head = request.head
        var status = answer.status
        var headers = HTTPHeaders(answer.headers.map { ($0.name, $0.value) })
        var body: BodySource
        var decodedLength: Int
        /// The digest of a body served from held bytes (fixture, HAR, upstream): `BodyDigest`.
        var heldBodyDigest: String?
        var heldBody: [UInt8]?
        var deflate: DeflateCounter?
        var coding: ResponseEncoding.Coding?
        let method = head.method
        if (method == .GET || method == .HEAD) && status == 200
            && ResponseEncoding.notModified(ifNoneMatch: parsed.header("if-none-match"), etag: answer.header("etag")) {
            // The client's copy is current: no body, the validators and caching headers stay (RFC 9110 §15.4.5).
            status = 304
            headers.remove(name: "content-type")
            body = BodySource(bytes: [])
            decodedLength = 0
        } else {
            coding = ResponseEncoding.negotiate(parsed.header("accept-encoding"))
            if coding != nil && (!ResponseEncoding.isCompressible(contentType: answer.header("content-type"))
                                 || answer.header("content-encoding") != nil || status == 204) {
                coding = nil
            }
            var bytes: [UInt8]?
            switch answer.body {
            case .bytes(let value):
                bytes = value
            case .synthetic(let path):
                let length = BodySource(path: path)?.remaining ?? 0
                if coding != nil && length <= ResponseEncoding.maximumSyntheticLength {
                    bytes = OriginContent.body(forPath: path)
                } else {
                    coding = nil
                }
            }
            if let bytes {
                decodedLength = bytes.count
                if case .bytes = answer.body, !bytes.isEmpty, method != .HEAD {
                    heldBodyDigest = BodyDigest.sha256(bytes)
                    // Only an answer can name a link: a 404's body names the path it could not find.
                    if (200..<300).contains(status) { heldBody = bytes }
                }
                var sent = bytes
                if let chosen = coding, bytes.count >= ResponseEncoding.minimumLength, let encoded = ResponseEncoding.encode(bytes, as: chosen) {
                    sent = encoded
                    headers.replaceOrAdd(name: "content-encoding", value: chosen.rawValue)
                } else {
                    coding = nil
                }
                if measuresCompressibility && !bytes.isEmpty, status != 304 {
                    recorder.deflateLater(path: request.path, body: bytes, wireBytes: sent.count)
                }
                body = BodySource(bytes: sent)
            } else {
                // A synthetic stream sent as it is: measured while it streams.
                if case .synthetic(let path) = answer.body, let source = BodySource(path: path) {
                    body = source
                } else {
                    body = BodySource(bytes: [])
                }
                decodedLength = body.remaining
                deflate = measuresCompressibility && body.remaining > 0 ? DeflateCounter() : nil
            }
            if coding != nil || ResponseEncoding.isCompressible(contentType: answer.header("content-type")) {
                headers.replaceOrAdd(name: "vary", value: "accept-encoding")
            }
        }
        let wireBodyLength = body.remaining
        recorder.request(path: request.path, requestBodyBytes: request.bodyBytes, responseBodyBytes: wireBodyLength)

        headers.remove(name: "content-length")
        headers.remove(name: "transfer-encoding")
        headers.remove(name: "connection")
        if status != 304 && status != 204 {
            headers.add(name: "content-length", value: String(wireBodyLength))
        }
        // A HEAD answer says how long the body would be and sends none.
        if method == .HEAD { body = BodySource(bytes: []) }
        let keepAlive = head.isKeepAlive && !inputClosed
        if !keepAlive {
            headers.add(name: "connection", value: "close")
        } else if head.version.major == 1 && head.version.minor == 0 {
            headers.add(name: "connection", value: "keep-alive")
        }
        let now = MonotonicClock.now()
        var record = WireRequest(
            originConnection: wire.number, reusedConnection: request.reused, method: parsed.method, host: parsed.host,
            path: parsed.path, query: parsed.query, status: status, source: answer.source, detail: answer.detail,
            requestBodyBytes: request.bodyBytes, responseBodyBytes: body.remaining, responseDecodedBodyBytes: method == .HEAD ? 0 : decodedLength,
            contentEncoding: coding?.rawValue, acceptEncoding: parsed.header("accept-encoding"),
            uplinkOffset: request.uplinkOffset, downlinkOffset: wire.bytesWritten, downlinkEndOffset: nil,
            start: 0, firstByte: nil, end: nil)
        record.responseBodyDigest = heldBodyDigest
        let index = log.begin(record, peerPort: wire.peerPort, startNs: request.startNs, firstByteNs: now, heldBody: heldBody)
        let responseHead = HTTPResponseHead(version: head.version, status: HTTPResponseStatus(statusCode: status), headers: headers)
        context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
        response = Outgoing(body: body, keepAlive: keepAlive, path: request.path, deflate: deflate, logIndex: index)
        sendBody(context: context)
    }

    /// Writes body pieces while the channel is writable; resumes on writability change.
    private func sendBody(context: ChannelHandlerContext) {
        guard var current = response else { return }
        response = nil  // keep `current` uniquely referenced while generating
        while current.body.remaining > 0 && context.channel.isWritable {
            var buffer = context.channel.allocator.buffer(capacity: min(BodySource.pieceSize, current.body.remaining))
            current.body.fill(&buffer, upTo: BodySource.pieceSize)
            current.deflate?.feed(buffer)
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        }
        guard current.body.remaining == 0 else {
            response = current
            context.flush()
            return
        }
        if let deflate = current.deflate, let deflated = deflate.finish() {
            recorder.deflated(path: current.path, bytes: deflate.inputBytes, deflated: deflated)
        }
        let keepAlive = current.keepAlive
        let channel = context.channel
        let log = self.log, wire = self.wire, index = current.logIndex
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { result in
            if case .success = result {
                log.finish(index, endNs: MonotonicClock.now(), downlinkEndOffset: wire.bytesWritten)
            }
            if !keepAlive { channel.close(promise: nil) }
        }
        queue.removeFirst()
        busy = false
        if keepAlive {
            answerNext(context: context)
        } else {
            queue.removeAll()
        }
    }
}
