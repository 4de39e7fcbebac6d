import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The kernel's own shaper as a reference for the proxy: `tc qdisc ... tbf rate 1mbit` on one
/// end of a veth pair between two network namespaces, and 1,000,000 B sent across it. Needs root
/// and `ip`/`tc`; it took 8.24 s on the 2-core development VM. The namespaces are removed afterwards.
enum TokenBucketReference {
    static let namespaces = ("frugal-bench-a", "frugal-bench-b")
    static let addresses = ("10.203.77.1", "10.203.77.2")

    /// Why the reference cannot run here, or nil when it can.
    static func unavailableReason() -> String? {
        if geteuid() != 0 { return "not root: ip netns and tc need CAP_NET_ADMIN" }
        for tool in ["/usr/sbin/ip", "/usr/sbin/tc", "/sbin/ip", "/sbin/tc"] where access(tool, X_OK) == 0 { return nil }
        return "ip and tc are not installed"
    }

    @discardableResult
    static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw LoopbackPeers.Failure("\(arguments.joined(separator: " ")): \(text.trimmingCharacters(in: .whitespacesAndNewlines))", 0)
        }
        return text
    }

    /// Builds the two namespaces, the veth pair and the tbf qdisc at `rate` (tc syntax, `1mbit`).
    static func setUp(rate: String) throws {
        tearDown()
        let (a, b) = namespaces
        try run(["ip", "netns", "add", a])
        try run(["ip", "netns", "add", b])
        try run(["ip", "link", "add", "fbench-a", "netns", a, "type", "veth", "peer", "name", "fbench-b", "netns", b])
        try run(["ip", "-n", a, "addr", "add", "\(addresses.0)/24", "dev", "fbench-a"])
        try run(["ip", "-n", b, "addr", "add", "\(addresses.1)/24", "dev", "fbench-b"])
        try run(["ip", "-n", a, "link", "set", "fbench-a", "up"])
        try run(["ip", "-n", b, "link", "set", "fbench-b", "up"])
        // Egress of a → b: the direction the megabyte goes.
        try run(["ip", "netns", "exec", a, "tc", "qdisc", "add", "dev", "fbench-a", "root", "tbf", "rate", rate, "burst", "32kbit", "latency", "400ms"])
    }

    /// Removes the namespaces (and with them the veth pair); safe to call when they do not exist.
    static func tearDown() {
        _ = try? run(["ip", "netns", "del", namespaces.0])
        _ = try? run(["ip", "netns", "del", namespaces.1])
    }

    /// `setns(fd, CLONE_NEWNET)` for the calling thread. Glibc's Swift module does not export
    /// `setns` (it needs _GNU_SOURCE), so it is looked up at run time.
    static func joinNetworkNamespace(_ fd: Int32) -> Int32 {
        let cloneNewNet: Int32 = 0x4000_0000  // CLONE_NEWNET, <linux/sched.h>
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "setns") else { return -1 }  // RTLD_DEFAULT
        typealias SetNS = @convention(c) (Int32, Int32) -> Int32
        return unsafeBitCast(symbol, to: SetNS.self)(fd, cloneNewNet)
    }

    /// Runs `body` on a new thread that has joined network namespace `name` (sockets made there belong to it).
    static func inNamespace<T: Sendable>(_ name: String, _ body: @escaping @Sendable () throws -> T) throws -> T {
        let outcome = Outcome<T>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            defer { done.signal() }
            let fd = open("/var/run/netns/\(name)", O_RDONLY)
            guard fd >= 0, joinNetworkNamespace(fd) == 0 else {
                outcome.result.withLock { $0 = Result<T, Error>.failure(LoopbackPeers.Failure("setns \(name)")) }
                return
            }
            close(fd)
            let result = Result { try body() }
            outcome.result.withLock { $0 = result }
        }
        thread.start()
        done.wait()
        return try outcome.result.withLock { $0 }!.get()
    }

    /// Seconds to move `bytes` from namespace a to namespace b across the shaped veth.
    static func transfer(bytes: Int) throws -> Double {
        let (listener, port) = try inNamespace(namespaces.0) { try LoopbackPeers.listen(host: addresses.0) }
        defer { close(listener) }
        let sender = Thread {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            try? LoopbackPeers.sendAll(client, [UInt8](repeating: 0x61, count: bytes))
            shutdown(client, Int32(SHUT_WR))
            var byte: UInt8 = 0
            _ = recv(client, &byte, 1, 0)  // wait for the receiver to close
            close(client)
        }
        sender.start()
        return try inNamespace(namespaces.1) {
            let fd = try LoopbackPeers.connect(host: addresses.0, port: port)
            defer { close(fd) }
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try LoopbackPeers.read(fd, count: bytes)
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
    }
}

/// A result carried out of another thread.
private final class Outcome<T: Sendable>: Sendable {
    let result = Mutex<Result<T, Error>?>(nil)
}
