import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Small blocking TCP helpers on 127.0.0.1 for the sample apps: real sockets, real waits.
enum LoopbackSocket {
    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ call: String) { description = "\(call): \(String(cString: strerror(errno)))" }
    }

    private static func address(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        return address
    }

    /// A listening socket on an ephemeral loopback port.
    static func listen() throws -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket") }
        var bound = address(port: 0)
        let result = withUnsafePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0, Glibc.listen(fd, 16) == 0 else {
            close(fd)
            throw Failure("bind/listen")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return (fd, UInt16(bigEndian: actual.sin_port))
    }

    /// A connected socket to `port` on loopback.
    static func connect(port: UInt16) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket") }
        var target = address(port: port)
        let result = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            throw Failure("connect")
        }
        return fd
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw Failure("write")
            }
            offset += written
        }
    }

    /// Reads until the peer closes.
    static func readToEnd(_ fd: Int32) throws -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure("read")
            }
            if count == 0 { return result }
            result += buffer[0..<count]
        }
    }

    /// Reads a request that ends with a newline (the client then waits for the answer).
    static func readLine(_ fd: Int32) throws -> [UInt8] {
        var line: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure("read")
            }
            if count == 0 { return line }
            line += buffer[0..<count]
            if line.last == UInt8(ascii: "\n") { return line.dropLast() }
        }
    }
}

/// A slow server standing in for a remote one, for exactly one request: a thread that sleeps in
/// `accept` until the client comes, closes its listening socket at once (so the app holds no
/// listener of its own), reads the request line, takes `latency` to answer (a slow backend),
/// sends `response` and closes. The client's wait for it is a real socket wait.
enum SlowLoopbackServer {
    /// Starts the one-shot server; returns its port.
    static func start(latency: Double, response: [UInt8]) throws -> UInt16 {
        let (fd, port) = try LoopbackSocket.listen()
        let thread = Thread {
            var client: Int32 = -1
            repeat { client = accept(fd, nil, nil) } while client < 0 && errno == EINTR
            close(fd)
            guard client >= 0 else { return }
            _ = try? LoopbackSocket.readLine(client)
            Thread.sleep(forTimeInterval: latency)
            try? LoopbackSocket.writeAll(client, response)
            close(client)
        }
        thread.name = "slow-server"
        thread.start()
        return port
    }

    /// One request to a fresh slow server: connect, send `request` as a line, read the whole answer.
    /// Blocks the caller for about `latency`.
    static func request(latency: Double, response: [UInt8], _ request: [UInt8]) throws -> [UInt8] {
        let port = try start(latency: latency, response: response)
        let fd = try LoopbackSocket.connect(port: port)
        defer { close(fd) }
        try LoopbackSocket.writeAll(fd, request + [UInt8(ascii: "\n")])
        return try LoopbackSocket.readToEnd(fd)
    }
}
