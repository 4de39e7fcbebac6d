import Foundation
import FrugalProbe
#if canImport(Glibc)
import Glibc
#endif

/// Small blocking TCP helpers on 127.0.0.1 for the sample apps: real sockets, real waits.
enum LoopbackSocket {
    private static func address(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        return address
    }

    /// Calls `body` with `address` as a `sockaddr`.
    @discardableResult
    private static func withSocketAddress<T>(_ address: inout sockaddr_in, _ body: (UnsafeMutablePointer<sockaddr>) throws -> T) rethrows -> T {
        try withUnsafeMutablePointer(to: &address) { try $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
    }

    private static func streamSocket() throws -> Int32 {
        try SystemCall.retrying("socket") { socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
    }

    /// A listening socket on an ephemeral loopback port.
    static func listen() throws -> (fd: Int32, port: UInt16) {
        let fd = try streamSocket()
        var bound = address(port: 0)
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        do {
            try withSocketAddress(&bound) { address in
                try SystemCall.retrying("bind") { bind(fd, address, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            try SystemCall.retrying("listen") { Glibc.listen(fd, 16) }
            try withSocketAddress(&actual) { address in try SystemCall.retrying("getsockname") { getsockname(fd, address, &length) } }
        } catch {
            try? SystemCall.close(fd)
            throw error
        }
        return (fd, UInt16(bigEndian: actual.sin_port))
    }

    /// A connected socket to `port` on loopback.
    static func connect(port: UInt16) throws -> Int32 {
        let fd = try streamSocket()
        var target = address(port: port)
        do {
            try withSocketAddress(&target) { address in
                try SystemCall.retrying("connect", subject: "127.0.0.1:\(port)") {
                    Glibc.connect(fd, address, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        } catch {
            try? SystemCall.close(fd)
            throw error
        }
        return fd
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            offset += try bytes[offset...].withUnsafeBytes { raw in
                try SystemCall.retrying("write") { write(fd, raw.baseAddress, raw.count) }
            }
        }
    }

    /// Reads until the peer closes.
    static func readToEnd(_ fd: Int32) throws -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = try buffer.withUnsafeMutableBytes { raw in
                try SystemCall.retrying("read") { read(fd, raw.baseAddress, raw.count) }
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
        defer { try? SystemCall.close(fd) }
        try LoopbackSocket.writeAll(fd, Array("SLOW \(Int(latency * 1000)) \(responseBytes)\n".utf8) + payload)
        try SystemCall.retrying("shutdown") { shutdown(fd, Int32(SHUT_WR)) }
        return try LoopbackSocket.readToEnd(fd)
    }

    /// A one-shot server thread in this process, for an app run without the harness.
    private static func startStandIn(latency: Double, responseBytes: Int) throws -> UInt16 {
        let (fd, port) = try LoopbackSocket.listen()
        let thread = Thread {
            // One client, then the listener is done; a failed accept leaves the app's request to fail.
            let client = try? SystemCall.retrying("accept") { accept(fd, nil, nil) }
            try? SystemCall.close(fd)
            guard let client else { return }
            _ = try? LoopbackSocket.readToEnd(client)
            Thread.sleep(forTimeInterval: latency)
            try? LoopbackSocket.writeAll(client, [UInt8](repeating: UInt8(ascii: "s"), count: responseBytes))
            try? SystemCall.close(client)
        }
        thread.name = "slow-server-stand-in"
        thread.start()
        return port
    }
}
