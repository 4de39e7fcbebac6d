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

/// A slow server in the app's own process, standing in for a remote one: a thread that sleeps in
/// `accept` until a client comes, reads its request line, takes `latency` to answer (a slow
/// backend), then sends `response` and closes. The client's wait for it is a real socket wait.
final class SlowLoopbackServer: @unchecked Sendable {
    let port: UInt16
    private let fd: Int32

    init(latency: Double, response: [UInt8]) throws {
        (fd, port) = try LoopbackSocket.listen()
        let fd = self.fd
        let thread = Thread {
            while true {
                let client = accept(fd, nil, nil)
                if client < 0 {
                    if errno == EINTR { continue }
                    return
                }
                _ = try? LoopbackSocket.readLine(client)
                Thread.sleep(forTimeInterval: latency)
                try? LoopbackSocket.writeAll(client, response)
                close(client)
            }
        }
        thread.name = "slow-server"
        thread.start()
    }

    /// One request: connect, send `request` as a line, read the whole answer. Blocks the caller.
    static func request(port: UInt16, _ request: [UInt8]) throws -> [UInt8] {
        let fd = try LoopbackSocket.connect(port: port)
        defer { close(fd) }
        try LoopbackSocket.writeAll(fd, request + [UInt8(ascii: "\n")])
        return try LoopbackSocket.readToEnd(fd)
    }
}
