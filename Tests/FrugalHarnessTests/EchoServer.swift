import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A one-thread blocking TCP echo server on 127.0.0.1, for byte-exact round trips
/// (a 1-byte request and a 1-byte response) without HTTP in the way.
final class EchoServer: @unchecked Sendable {
    private let listener: Int32
    let port: Int
    private let thread: Thread

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 16) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard ok else { throw BlockingSocket.Failure.system("bind/listen", errno) }
        port = Int(UInt16(bigEndian: address.sin_port))
        thread = Thread {
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 { return }  // listener shut down
                var one: Int32 = 1
                setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                var buffer = [UInt8](repeating: 0, count: 65536)
                while true {
                    let n = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                    if n <= 0 { break }
                    _ = buffer.withUnsafeBytes { send(client, $0.baseAddress, n, Int32(MSG_NOSIGNAL)) }
                }
                close(client)
            }
        }
        thread.start()
    }

    /// Stops accepting (shutdown wakes the blocked `accept`). Serves one client at a time.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
