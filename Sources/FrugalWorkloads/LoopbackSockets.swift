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
}

/// A slow remote server: the harness's (`FRUGAL_SLOW_PEER_PORT`), outside the app's process so
/// its wakeups are not the app's; an app run by hand gets a one-shot stand-in thread instead.
/// A request is `SLOW <latency ms> <response bytes>\n` and a payload, ended by a half-close.
enum SlowLoopbackServer {
    /// One request: connect, send the header and `payload`, half-close, read the whole answer.
    /// Blocks the caller for about `latency` seconds: a real socket wait.
    static func request(latency: Double, responseBytes: Int, payload: [UInt8] = []) throws -> [UInt8] {
        let port = try ProcessInfo.processInfo.environment["FRUGAL_SLOW_PEER_PORT"].flatMap { UInt16($0) }
            ?? startStandIn(latency: latency, responseBytes: responseBytes)
        let fd = try LoopbackSocket.connect(port: port)
        defer { close(fd) }
        try LoopbackSocket.writeAll(fd, Array("SLOW \(Int(latency * 1000)) \(responseBytes)\n".utf8) + payload)
        shutdown(fd, Int32(SHUT_WR))
        return try LoopbackSocket.readToEnd(fd)
    }

    /// A one-shot server thread in this process, for an app run without the harness.
    private static func startStandIn(latency: Double, responseBytes: Int) throws -> UInt16 {
        let (fd, port) = try LoopbackSocket.listen()
        let thread = Thread {
            var client: Int32 = -1
            repeat { client = accept(fd, nil, nil) } while client < 0 && errno == EINTR
            close(fd)
            guard client >= 0 else { return }
            _ = try? LoopbackSocket.readToEnd(client)
            Thread.sleep(forTimeInterval: latency)
            try? LoopbackSocket.writeAll(client, [UInt8](repeating: UInt8(ascii: "s"), count: responseBytes))
            close(client)
        }
        thread.name = "slow-server-stand-in"
        thread.start()
        return port
    }
}
