import FrugalSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One blocking TCP connection of `NetworkClient`, each system call wrapped once
/// (`SystemCall.retrying`: EINTR retried, errno kept) and mapped to a `NetworkError`.
final class TCPConnection: Sendable {
    /// The socket, -1 once closed; locked because `abort` comes from another thread.
    private let fd: Mutex<Int32>
    /// Requests answered on this connection (more than 0: it is being kept alive).
    private let served = Mutex(0)
    var requestsServed: Int {
        get { served.withLock { $0 } }
        set { served.withLock { $0 = newValue } }
    }

    /// Connects to `endpoint`; reads and writes fail after `timeout` seconds without progress.
    init(to endpoint: NetworkEndpoint, timeout: Double) throws {
        let fd: Int32
        do {
            fd = try SystemCall.retrying("socket") { socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        } catch let error as SystemCallError {
            throw NetworkError.system("\(error)")
        }
        self.fd = Mutex(fd)
        var one: Int32 = 1
        do {
            // Requests are small and timed: Nagle + delayed ACK would add ~40 ms stalls.
            try SystemCall.retrying("setsockopt", subject: "TCP_NODELAY") {
                setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            }
            try setTimeout(timeout)
        } catch {
            close()
            throw NetworkError.system("\(error)")
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(endpoint.port).bigEndian)
        guard inet_pton(AF_INET, endpoint.host, &address.sin_addr) == 1 else {
            close()
            throw NetworkError.system("not an IPv4 address: \(endpoint.host)")
        }
        do {
            try withUnsafePointer(to: &address) { pointer in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                    _ = try SystemCall.retrying("connect", subject: endpoint.description) {
                        connect(fd, socketAddress, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
            }
        } catch let error as SystemCallError {
            close()
            throw Self.map(error, timeout: timeout)
        }
    }

    deinit { close() }

    /// Sets the no-progress timeout of reads and writes.
    func setTimeout(_ seconds: Double) throws {
        let whole = max(0, seconds.rounded(.down))
        var value = timeval(tv_sec: Int(whole), tv_usec: Int((seconds - whole) * 1e6))
        if value.tv_sec == 0 && value.tv_usec == 0 { value.tv_usec = 1000 }
        let descriptor = fd.withLock { $0 }
        for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
            try SystemCall.retrying("setsockopt", subject: option == SO_RCVTIMEO ? "SO_RCVTIMEO" : "SO_SNDTIMEO") {
                setsockopt(descriptor, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<timeval>.size))
            }
        }
    }

    /// Writes all of `bytes`.
    func send(_ bytes: [UInt8], timeout: Double) throws {
        var sent = 0
        let descriptor = fd.withLock { $0 }
        while sent < bytes.count {
            do {
                let count = try SystemCall.retrying("send") {
                    bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                }
                sent += count
            } catch let error as SystemCallError {
                throw Self.map(error, timeout: timeout)
            }
        }
    }

    /// One `recv` into `buffer`: the count read, 0 at end of stream.
    func receive(into buffer: inout [UInt8], timeout: Double) throws -> Int {
        let descriptor = fd.withLock { $0 }
        do {
            return try SystemCall.retrying("recv") {
                buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            }
        } catch let error as SystemCallError {
            throw Self.map(error, timeout: timeout)
        }
    }

    /// Whether a kept-alive connection can no longer be used: the peer closed or reset it (an
    /// idle HTTP connection has nothing to read, so anything readable means it is gone).
    var isStale: Bool {
        let descriptor = fd.withLock { $0 }
        guard descriptor >= 0 else { return true }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        // A descriptor poll cannot look at is as good as gone.
        let ready = (try? SystemCall.retrying("poll") { poll(&entry, 1, 0) }) ?? 1
        return ready != 0
    }

    /// Aborts a blocked send or recv from another thread (cancellation).
    func abort() {
        // ENOTCONN (the peer is gone already) leaves nothing blocked to abort.
        fd.withLock { fd in if fd >= 0 { _ = try? SystemCall.retrying("shutdown") { shutdown(fd, Int32(SHUT_RDWR)) } } }
    }

    func close() {
        fd.withLock { fd in
            if fd >= 0 {
                // A failed close of a connection being dropped leaves nothing to do.
                try? SystemCall.close(fd, subject: "connection")
                fd = -1
            }
        }
    }

    static func map(_ error: SystemCallError, timeout: Double) -> NetworkError {
        switch error.errno {
        case ECONNREFUSED: return .connectionRefused
        case ECONNRESET, EPIPE: return .connectionReset
        case EAGAIN, ETIMEDOUT: return .timedOut(seconds: timeout)
        default: return .system("\(error)")
        }
    }
}
