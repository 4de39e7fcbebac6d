import Foundation

/// HTTP/1.1 framing for `NetworkClient`: the request bytes, and a response parser fed whatever
/// `recv` returns. Pure: no sockets, so it is tested byte for byte.
enum HTTPMessage {
    /// The request's bytes: request line, `host`, `content-length` when there is a body (or
    /// for POST/PUT), the app's headers, then the body. Keep-alive is HTTP/1.1's default.
    static func serialize(_ request: NetworkRequest, host: String) -> [UInt8] {
        var head = "\(request.method) \(request.target) HTTP/1.1\r\nhost: \(host)\r\n"
        if !request.body.isEmpty || request.method == "POST" || request.method == "PUT" {
            head += "content-length: \(request.body.count)\r\n"
        }
        for (name, value) in request.headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + request.body
    }
}

/// Parses one response from bytes as they arrive: head up to CRLFCRLF, then `content-length`
/// bytes of body (every response of Frugal's origin has one; chunked bodies are not supported).
struct HTTPResponseParser {
    enum State: Equatable {
        case head
        case body(remaining: Int)
        case done
    }

    private(set) var state = State.head
    private var buffer: [UInt8] = []
    private(set) var status = 0
    private(set) var headers: [String: String] = [:]
    private(set) var body: [UInt8] = []
    /// Whether the server said it closes the connection after this response.
    private(set) var closes = false
    /// Bytes that arrived after the response ended (none, unless the peer pipelined garbage).
    private(set) var surplus = 0

    /// Feeds received bytes; throws on a malformed head.
    mutating func feed(_ bytes: ArraySlice<UInt8>) throws {
        switch state {
        case .head:
            buffer += bytes
            guard let end = Self.headEnd(buffer) else {
                if buffer.count > 64 * 1024 { throw NetworkError.malformedResponse("head longer than 64 KiB") }
                return
            }
            try parseHead(buffer[..<end])
            let rest = buffer[end...]
            buffer = []
            try feed(rest)
        case .body(let remaining):
            let taken = min(remaining, bytes.count)
            body += bytes.prefix(taken)
            surplus += bytes.count - taken
            state = remaining - taken == 0 ? .done : .body(remaining: remaining - taken)
        case .done:
            surplus += bytes.count
        }
    }

    var isComplete: Bool { state == .done }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index + 4
        }
        return nil
    }

    private mutating func parseHead(_ bytes: ArraySlice<UInt8>) throws {
        let text = String(decoding: bytes, as: UTF8.self)
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: true)
        guard !lines.isEmpty else { throw NetworkError.malformedResponse("empty head") }
        let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let code = Int(statusLine[1]) else {
            throw NetworkError.malformedResponse("bad status line")
        }
        status = code
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw NetworkError.malformedResponse("bad header line") }
            let name = line[..<colon].lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        if headers["transfer-encoding"] != nil { throw NetworkError.malformedResponse("transfer-encoding is not supported") }
        closes = headers["connection"]?.lowercased() == "close"
        let length = Int(headers["content-length"] ?? "0") ?? -1
        guard length >= 0 else { throw NetworkError.malformedResponse("bad content-length") }
        state = length == 0 ? .done : .body(remaining: length)
    }
}
