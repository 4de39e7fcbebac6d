import Foundation
import FrugalProbe
#if canImport(Glibc)
import Glibc
#endif

/// A slow remote server on loopback, run by the harness so that its threads and wakeups are not
/// the app's. A request is a header line `SLOW <latency ms> <response bytes>`, then any payload
/// up to the client's half-close; the peer waits the latency (a slow backend), answers with that
/// many bytes and closes. Workloads find it through `FRUGAL_SLOW_PEER_PORT`.
final class SlowPeer: Sendable {
    /// The environment variable that tells a workload the peer's port.
    static let environmentVariable = "FRUGAL_SLOW_PEER_PORT"

    /// The harness process's one peer, started on first use; nil when loopback cannot listen.
    static let shared: SlowPeer? = try? SlowPeer()

    let port: UInt16
    private let fd: Int32

    private init() throws {
        let fd = try SystemCall.retrying("socket", subject: "slow peer") {
            socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        do {
            _ = try withUnsafePointer(to: &address) { pointer in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    try SystemCall.retrying("bind", subject: "slow peer") { bind(fd, address, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                }
            }
            try SystemCall.retrying("listen", subject: "slow peer") { listen(fd, 64) }
            _ = try withUnsafeMutablePointer(to: &actual) { pointer in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    try SystemCall.retrying("getsockname", subject: "slow peer") { getsockname(fd, address, &length) }
                }
            }
        } catch {
            try? SystemCall.close(fd, subject: "slow peer")
            throw error
        }
        self.fd = fd
        self.port = UInt16(bigEndian: actual.sin_port)
        let thread = Thread { [fd] in
            // The listening socket lives as long as the harness process: accept fails only if it is gone.
            while let client = try? SystemCall.retrying("accept", subject: "slow peer", { accept(fd, nil, nil) }) {
                let worker = Thread { SlowPeer.serve(client) }
                worker.name = "frugal-slow-peer-connection"
                worker.start()
            }
        }
        thread.name = "frugal-slow-peer"
        thread.start()
    }

    private static func serve(_ client: Int32) {
        // The answer is written or the client went away: a failed close changes neither.
        defer { try? SystemCall.close(client, subject: "slow peer client") }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        // Up to the client's half-close; a failed read (the client reset) ends the request too.
        while let count = try? buffer.withUnsafeMutableBytes({ raw in
            try SystemCall.retrying("read", subject: "slow peer client") { read(client, raw.baseAddress, raw.count) }
        }), count > 0 {
            received += buffer[0..<count]
        }
        let header = received.prefix { $0 != UInt8(ascii: "\n") }.split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
        guard header.count == 3, header[0] == "SLOW", let latency = Double(header[1]), let size = Int(header[2]), size >= 0, size <= 64 << 20 else { return }
        Thread.sleep(forTimeInterval: latency / 1000)
        let response = [UInt8](repeating: UInt8(ascii: "s"), count: size)
        var offset = 0
        while offset < response.count {
            // A client that went away takes its answer with it.
            guard let written = try? response[offset...].withUnsafeBytes({ raw in
                try SystemCall.retrying("write", subject: "slow peer client") { write(client, raw.baseAddress, raw.count) }
            }) else { return }
            offset += written
        }
    }
}
