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
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemCallError(call: "socket", subject: "slow peer", errno: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw SystemCallError(call: "bind/listen", subject: "slow peer", errno: errno)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        self.fd = fd
        self.port = UInt16(bigEndian: actual.sin_port)
        let thread = Thread { [fd] in
            while true {
                let client = accept(fd, nil, nil)
                if client < 0 {
                    if errno == EINTR { continue }
                    return
                }
                let worker = Thread { SlowPeer.serve(client) }
                worker.name = "frugal-slow-peer-connection"
                worker.start()
            }
        }
        thread.name = "frugal-slow-peer"
        thread.start()
    }

    private static func serve(_ client: Int32) {
        defer { close(client) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(client, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        let header = received.prefix { $0 != UInt8(ascii: "\n") }.split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
        guard header.count == 3, header[0] == "SLOW", let latency = Double(header[1]), let size = Int(header[2]), size >= 0, size <= 64 << 20 else { return }
        Thread.sleep(forTimeInterval: latency / 1000)
        let response = [UInt8](repeating: UInt8(ascii: "s"), count: size)
        var offset = 0
        while offset < response.count {
            let written = response[offset...].withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}
