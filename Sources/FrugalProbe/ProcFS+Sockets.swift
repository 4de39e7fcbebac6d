import FrugalCore
import Foundation

extension ProcFS {
    /// A LISTEN entry of `/proc/<pid>/net/tcp` or `tcp6`.
    public struct ListenEntry: Equatable, Sendable {
        public var localAddress: String
        public var inode: UInt64
    }

    /// The listening entries of a `net/tcp` or `net/tcp6` table (state `0A`).
    public static func parseListeningEntries(_ text: String) -> [ListenEntry] {
        text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count >= 10, fields[3] == "0A", let inode = UInt64(fields[9]) else { return nil }
            return ListenEntry(localAddress: decodeAddress(fields[1]), inode: inode)
        }
    }

    /// `0100007F:1F90` → `127.0.0.1:8080`; IPv6 as its 32 hex digits in brackets.
    static func decodeAddress(_ field: Substring) -> String {
        let parts = field.split(separator: ":")
        guard parts.count == 2, let port = UInt16(parts[1], radix: 16) else { return String(field) }
        let host = parts[0]
        if host.count == 8, let value = UInt32(host, radix: 16) {
            // The kernel prints the address in host (little-endian) order.
            return "\(value & 0xff).\(value >> 8 & 0xff).\(value >> 16 & 0xff).\(value >> 24):\(port)"
        }
        return "[\(host)]:\(port)"
    }

    /// The socket inode behind an fd link (`socket:[12345]`), if it is a socket.
    public static func socketInode(link: String) -> UInt64? {
        guard link.hasPrefix("socket:["), link.hasSuffix("]") else { return nil }
        return UInt64(link.dropFirst(8).dropLast())
    }

    /// The TCP sockets `pid` holds open in the listening state, read from outside it.
    public static func listeningSockets(pid: Int32) throws -> [ListeningSocket] {
        var listening: [UInt64: (String, String)] = [:]
        for proto in ["tcp", "tcp6"] {
            guard let text = try? FileReader.readText("/proc/\(pid)/net/\(proto)") else { continue }
            for entry in parseListeningEntries(text) { listening[entry.inode] = (proto, entry.localAddress) }
        }
        var sockets: [ListeningSocket] = []
        for name in try FileReader.directoryEntries("/proc/\(pid)/fd") {
            guard let fd = Int32(name),
                  let link = fdLink(pid: pid, fd: name),
                  let inode = socketInode(link: link), let (proto, address) = listening[inode] else { continue }
            sockets.append(ListeningSocket(proto: proto, localAddress: address, inode: inode, fd: fd))
        }
        return sockets.sorted { $0.fd < $1.fd }
    }
}
