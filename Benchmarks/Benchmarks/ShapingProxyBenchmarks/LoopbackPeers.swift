import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Plain blocking TCP peers for the benchmarks, independent of NIO so they see the proxy the
/// way any workload's socket does.
enum LoopbackPeers {
    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ call: String, _ error: Int32 = errno) { description = "\(call): \(String(cString: strerror(error)))" }
    }

    static func address(_ host: String, _ port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr(host)
        return address
    }

    /// A connected socket with TCP_NODELAY.
    static func connect(host: String = "127.0.0.1", port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket") }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = address(host, port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let error = errno
            close(fd)
            throw Failure("connect \(host):\(port)", error)
        }
        return fd
    }

    /// A listening socket on `host`, port chosen by the kernel.
    static func listen(host: String = "127.0.0.1") throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket") }
        var address = address(host, 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && Glibc.listen(fd, 16) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ok else { throw Failure("bind/listen \(host)") }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw Failure("send") }
            sent += count
        }
    }

    /// Reads until `count` bytes have arrived (discarding them); returns the bytes read.
    static func read(_ fd: Int32, count: Int) throws -> Int {
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        var total = 0
        while total < count {
            let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, min($0.count, count - total), 0) }
            guard got > 0 else { throw got == 0 ? Failure("recv: closed after \(total) of \(count) B", 0) : Failure("recv") }
            total += got
        }
        return total
    }

    /// GETs `path` over `fd` and reads the whole response (head, then content-length bytes);
    /// returns the bytes on the wire.
    static func get(_ fd: Int32, path: String) throws -> Int {
        try sendAll(fd, Array("GET \(path) HTTP/1.1\r\nhost: bench\r\n\r\n".utf8))
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while !(head.count >= 4 && head.suffix(4) == [13, 10, 13, 10]) {
            guard recv(fd, &byte, 1, 0) == 1 else { throw Failure("recv head") }
            head.append(byte)
        }
        let text = String(decoding: head, as: UTF8.self).lowercased()
        guard let line = text.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
              let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) else {
            throw Failure("no content-length", 0)
        }
        return try head.count + read(fd, count: length)
    }
}

/// A one-connection-at-a-time echo server on loopback, for a byte-exact round trip.
final class EchoServer: Sendable {
    let port: Int
    private let listener: Int32

    init() throws {
        (listener, port) = try LoopbackPeers.listen()
        let listener = self.listener
        Thread.detachNewThread {
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 { return }
                var one: Int32 = 1
                setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                var buffer = [UInt8](repeating: 0, count: 65536)
                while true {
                    let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                    if count <= 0 { break }
                    _ = buffer.withUnsafeBytes { send(client, $0.baseAddress, count, Int32(MSG_NOSIGNAL)) }
                }
                close(client)
            }
        }
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
