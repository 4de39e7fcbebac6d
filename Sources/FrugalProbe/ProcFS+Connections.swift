import Foundation

extension ProcFS {
    /// A TCP connection a process holds, read from outside it: its remote address and socket inode.
    public struct ConnectedSocket: Equatable, Sendable {
        public var localAddress: String
        public var remoteAddress: String
        public var inode: UInt64
    }

    /// The entries of a `net/tcp` or `net/tcp6` table that are connected or connecting
    /// (`01` ESTABLISHED, `02` SYN_SENT): what a client opened.
    public static func parseConnectedEntries(_ text: String) -> [ConnectedSocket] {
        text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count >= 10, fields[3] == "01" || fields[3] == "02", let inode = UInt64(fields[9]), inode != 0 else { return nil }
            return ConnectedSocket(localAddress: decodeAddress(fields[1]), remoteAddress: decodeAddress(fields[2]), inode: inode)
        }
    }

    /// The TCP connections `pid` holds open (its fds' sockets that are connected or connecting),
    /// and the ports it listens on, read from `/proc/<pid>/net/tcp{,6}` and `/proc/<pid>/fd`.
    public static func connectedSockets(pid: Int32) throws -> (connections: [ConnectedSocket], listeningPorts: Set<Int>) {
        // The process's socket descriptors first: without one it has no connection, and the
        // namespace's whole TCP table (every socket of the machine's namespace) need not be read.
        var inodes: [UInt64] = []
        for name in try FileReader.directoryEntries("/proc/\(pid)/fd") {
            guard let link = fdLink(pid: pid, fd: name),
                  let inode = socketInode(link: link) else { continue }
            inodes.append(inode)
        }
        if inodes.isEmpty { return ([], []) }
        var connected: [UInt64: ConnectedSocket] = [:]
        var listening: [UInt64: String] = [:]
        for proto in ["tcp", "tcp6"] {
            guard let text = try? FileReader.readText("/proc/\(pid)/net/\(proto)") else { continue }
            for entry in parseConnectedEntries(text) { connected[entry.inode] = entry }
            for entry in parseListeningEntries(text) { listening[entry.inode] = entry.localAddress }
        }
        var connections: [ConnectedSocket] = []
        var ports: Set<Int> = []
        for inode in inodes {
            if let connection = connected[inode] { connections.append(connection) }
            if let address = listening[inode], let port = address.split(separator: ":").last.flatMap({ Int($0) }) { ports.insert(port) }
        }
        return (connections, ports)
    }
}
