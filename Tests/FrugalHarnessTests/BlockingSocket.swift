import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain blocking TCP client on 127.0.0.1, deliberately independent of NIO so the
/// tests observe the proxy and origin the way any workload's socket would.
final class BlockingSocket {
    enum Failure: Error, Equatable {
        case system(String, Int32)
        case timeout
        case closed
        case malformed(String)
    }

    /// How a read ended when the peer went away.
    enum Ending: Equatable {
        case eof
        case reset
        case timeout
    }

    private(set) var fd: Int32

    /// Connects to 127.0.0.1:`port`; reads give up after `timeout` seconds.
    init(port: Int, timeout: Double = 10) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure.system("socket", errno) }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        setTimeout(timeout)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let error = errno
            Glibc.close(fd)
            throw Failure.system("connect", error)
        }
    }

    deinit {
        close()
    }

    func setTimeout(_ seconds: Double) {
        var tv = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    func close() {
        if fd >= 0 {
            Glibc.close(fd)
            fd = -1
        }
    }

    /// Closes with `SO_LINGER` {on, 0}: the kernel sends RST, not FIN.
    func reset() {
        var linger = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
        close()
    }

    func shutdownWrite() {
        shutdown(fd, Int32(SHUT_WR))
    }

    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure.system("send", errno) }
            sent += n
        }
    }

    func send(_ string: String) throws {
        try send(Array(string.utf8))
    }

    /// One `recv` of up to `max` bytes: empty on EOF; throws on reset or timeout.
    func receive(max: Int = 65536) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: max)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, max, 0) }
        if n < 0 {
            let error = errno
            if error == EAGAIN || error == EWOULDBLOCK { throw Failure.timeout }
            throw Failure.system("recv", error)
        }
        return Array(buffer[0..<n])
    }

    /// Reads until EOF, reset or timeout; returns the bytes and how it ended.
    func drain() -> (bytes: Int, ending: Ending) {
        var total = 0
        while true {
            do {
                let chunk = try receive()
                if chunk.isEmpty { return (total, .eof) }
                total += chunk.count
            } catch Failure.timeout {
                return (total, .timeout)
            } catch {
                return (total, .reset)
            }
        }
    }

    private var pending: [UInt8] = []

    /// Reads exactly `count` bytes (after any already buffered), counting them; does not keep them
    /// unless `keep` is true (a 50 MB body need not be stored).
    func read(exactly count: Int, keep: Bool = true) throws -> [UInt8] {
        var result: [UInt8] = []
        var left = count
        let fromPending = min(left, pending.count)
        if keep { result += pending[0..<fromPending] }
        pending.removeFirst(fromPending)
        left -= fromPending
        while left > 0 {
            let chunk = try receive(max: min(left, 256 * 1024))
            if chunk.isEmpty { throw Failure.closed }
            if keep { result += chunk }
            left -= chunk.count
        }
        return result
    }

    /// A parsed HTTP/1.1 response.
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        /// Bytes on the wire: head plus body.
        var wireBytes: Int
    }

    /// Sends a request and reads the whole response (by content-length).
    func request(_ path: String, method: String = "GET", body: [UInt8] = [], close: Bool = false, keepBody: Bool = true) throws -> Response {
        var head = "\(method) \(path) HTTP/1.1\r\nhost: 127.0.0.1\r\n"
        if !body.isEmpty || method == "POST" { head += "content-length: \(body.count)\r\n" }
        if close { head += "connection: close\r\n" }
        head += "\r\n"
        try send(Array(head.utf8) + body)
        return try readResponse(keepBody: keepBody)
    }

    /// Reads one response: the head up to CRLFCRLF, then content-length bytes of body.
    func readResponse(keepBody: Bool = true) throws -> Response {
        let terminator: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        while headEnd == nil {
            if let range = pending.firstRange(of: terminator) {
                headEnd = range.upperBound
                break
            }
            let chunk = try receive()
            if chunk.isEmpty { throw Failure.closed }
            pending += chunk
        }
        let headBytes = Array(pending[0..<headEnd!])
        pending.removeFirst(headEnd!)
        guard let text = String(bytes: headBytes, encoding: .utf8) else { throw Failure.malformed("head") }
        var lines = text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Failure.malformed(text) }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        let body = try read(exactly: length, keep: keepBody)
        return Response(status: status, headers: headers, body: body, wireBytes: headBytes.count + length)
    }
}

/// Seconds elapsed while running `body`, on the monotonic clock.
func timed<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    let start = DispatchTime.now().uptimeNanoseconds
    let result = try body()
    return (result, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
}
