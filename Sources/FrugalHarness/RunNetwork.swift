import Foundation
import FrugalCore
import FrugalProbe
import NIOCore
import NIOPosix

/// The network side of one run: an origin server and a shaping proxy in front of it, both on
/// loopback and both the run's own (so runs side by side with `--jobs` never share a link).
/// The workload finds the proxy in `FRUGAL_PROXY=127.0.0.1:PORT`, and any HTTP client in the
/// proxy variables (`http_proxy`, `https_proxy`, ...; see ``environment``). One event-loop group
/// of the run's own serves both, a loop each, so the origin's work never delays the proxy's timing.
///
/// With a trust directory (apps and programs, not the built-in workloads, which speak plain
/// HTTP to `FRUGAL_PROXY`), the run also has its own CA: the origin answers `CONNECT` with TLS
/// (``ConnectTunnelHandler``), and ``RunTrust`` tells the app to trust the CA.
final class RunNetwork {
    /// The environment variable naming the proxy's address.
    static let environmentKey = FrugalProtocol.Environment.proxy

    let origin: OriginServer
    let proxy: ShapingProxy
    let address: String
    let radio: RadioProfile.Technology
    /// The run's CA, when it serves HTTPS.
    let certificateAuthority: RunCertificateAuthority?
    /// How the app is told to trust it.
    let trust: RunTrust?
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
    private var conditions: [(time: UInt64, profile: NetworkProfile)]
    private var faults: [(time: UInt64, kind: String, detail: String)] = []
    private var stopped = false
    /// What the origin serves, in words for the report.
    let serving: String
    /// The run's processes' connections past the proxy.
    let sockets: SocketWatch
    /// The recording, when the run records from an upstream, and where it goes.
    private let recording: (responder: UpstreamResponder, path: String)?

    /// Starts both servers with `profile` in force; `server` says what the origin answers with
    /// (nil or empty: the synthetic routes). With `trustDirectory`, makes the run's CA and writes
    /// its trust bundle in a new directory there (beside the sandbox).
    init(profile: NetworkProfile, radio: RadioProfile.Technology, server: ServerSettings? = nil, trustDirectory: URL? = nil) throws {
        let loops = Array(group.makeIterator())
        let responder: any OriginResponder
        do {
            (responder, serving, recording) = try Self.responder(for: server ?? ServerSettings(), group: group)
        } catch {
            try? group.syncShutdownGracefully()
            throw HarnessError.network(component: "origin server", underlying: error)
        }
        if let trustDirectory {
            do {
                let authority = try RunCertificateAuthority(label: "run")
                certificateAuthority = authority
                trust = try RunTrust(authority: authority, parent: trustDirectory)
            } catch {
                try? group.syncShutdownGracefully()
                throw HarnessError.network(component: "run certificate authority", underlying: error)
            }
        } else {
            (certificateAuthority, trust) = (nil, nil)
        }
        origin = OriginServer(group: loops[1 % loops.count], measuresCompressibility: true, responder: responder,
                              certificateAuthority: certificateAuthority)
        let originPort: Int
        do {
            originPort = try origin.start()
        } catch {
            origin.stop()
            trust?.remove()
            try? group.syncShutdownGracefully()
            throw HarnessError.network(component: "origin server", underlying: error)
        }
        let now = MonotonicClock.now()
        proxy = ShapingProxy(upstreamHost: "127.0.0.1", upstreamPort: originPort, profile: profile, origin: now, group: loops[0])
        do {
            address = "127.0.0.1:\(try proxy.start())"
        } catch {
            proxy.stop()
            origin.stop()
            trust?.remove()
            try? group.syncShutdownGracefully()
            throw HarnessError.network(component: "shaping proxy", underlying: error)
        }
        self.radio = radio
        sockets = SocketWatch(proxyAddress: address)
        conditions = [(now, profile)]
    }

    deinit { stop() }

    /// What the workload's environment needs: `FRUGAL_PROXY`, the proxy variables every common
    /// client reads (curl and libcurl, hence `URLSession`, read `http_proxy` in lower case only,
    /// and `https_proxy` or `HTTPS_PROXY`; others read the upper-case forms), loopback kept off
    /// the proxy (`no_proxy`: an app's own local services are not the network), and with a CA
    /// the trust variables (``RunTrust``).
    var environment: [String: String] {
        var environment = [Self.environmentKey: address]
        for key in Self.proxyVariables { environment[key] = "http://\(address)" }
        for key in Self.noProxyVariables { environment[key] = Self.noProxy }
        if let trust { environment.merge(trust.environment) { $1 } }
        return environment
    }

    /// The variables naming the proxy, each `http://127.0.0.1:PORT`.
    static let proxyVariables = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY"]
    /// The variables naming the hosts that bypass the proxy.
    static let noProxyVariables = ["no_proxy", "NO_PROXY"]
    /// Loopback, by name and address.
    static let noProxy = "localhost,127.0.0.1,::1"

    /// The file the app's processes see in place of the system CA bundle, when the run has one.
    var privateFile: PrivateFile? { trust?.privateFile }

    /// Watches the processes `pids` returns for connections past the proxy (``SocketWatch``).
    func watchSockets(ignoring: Set<String> = [], usage: CgroupCPUUsage? = nil, _ pids: @escaping @Sendable () -> [pid_t]) {
        sockets.watch(ignoring: ignoring, usage: usage, pids)
    }

    /// Changes the link conditions (a `network(profile)` step).
    func setProfile(_ profile: NetworkProfile) {
        proxy.setProfile(profile)
        conditions.append((MonotonicClock.now(), profile))
    }

    /// Injects `fault` into the next `connections` connections (a `fault(kind)` step).
    func inject(_ fault: ProxyFault, connections: Int, kind: String) {
        proxy.inject(fault, connections: connections)
        faults.append((MonotonicClock.now(), kind, "\(fault) × \(connections) connection\(connections == 1 ? "" : "s")"))
    }

    /// Stops both servers and their event loops; idempotent. Open connections are closed.
    func stop() {
        guard !stopped else { return }
        stopped = true
        sockets.stop()
        proxy.stop()
        origin.stop()
        trust?.remove()
        try? group.syncShutdownGracefully()
    }

    /// Stops the servers and returns what they saw, on the run's clock (seconds since `spawnTime`).
    /// A recording is written to its HAR file here; a failure to write it is the record's `recordingProblem`.
    func finish(spawnTime: UInt64) -> NetworkRecord {
        stop()
        let shift = MonotonicClock.seconds(from: spawnTime, to: proxy.origin)
        var trace = proxy.trace()
        var requests = WireRequest.placeOnLink(origin.wireRequests(origin: proxy.origin, connections: proxy.upstreamPorts()),
                                               chunks: trace.chunks)
        for index in trace.chunks.indices { trace.chunks[index].time += shift }
        for index in trace.events.indices { trace.events[index].time += shift }
        for index in requests.indices {
            requests[index].start += shift
            requests[index].firstByte = requests[index].firstByte.map { $0 + shift }
            requests[index].end = requests[index].end.map { $0 + shift }
        }
        func runTime(_ time: UInt64) -> Double { max(0, MonotonicClock.seconds(from: spawnTime, to: time)) }
        var record = NetworkRecord(proxyAddress: address, radio: radio, trace: trace, origin: origin.statistics(),
                                   conditions: conditions.map { NetworkConditionChange(time: runTime($0.time), profile: $0.profile) },
                                   faults: faults.map { InjectedFault(time: runTime($0.time), kind: $0.kind, detail: $0.detail) })
        record.requests = requests
        record.serving = serving
        if origin.unloggedRequests > 0 {
            record.serving = "\(serving); \(origin.unloggedRequests) requests past the first \(WireRequestLog.capacity) answered but not logged"
        }
        record.unseenConnections = sockets.finish(spawnTime: spawnTime)
        if let recording {
            do {
                try recording.responder.archive().write(path: recording.path)
            } catch {
                recordingProblem = "\(error)"
                record.serving = "\(serving) — not written: \(error)"
            }
        }
        if let certificateAuthority, let trust {
            let name = certificateAuthority.subject
            record.tls = TLSRecord(certificateAuthority: name, fingerprint: certificateAuthority.fingerprint, trust: trust.notes,
                                   handshakes: certificateAuthority.handshakeRecords(since: spawnTime))
        }
        return record
    }

    /// Why the recording's HAR file could not be written, once ``finish(spawnTime:)`` tried.
    private(set) var recordingProblem: String?

    /// The responder `settings` ask for, the words for the report, and the recording if any.
    static func responder(for settings: ServerSettings, group: EventLoopGroup) throws
        -> (any OriginResponder, String, (responder: UpstreamResponder, path: String)?) {
        if let upstream = settings.upstream {
            let responder = try UpstreamResponder(url: upstream, group: group)
            let path = settings.recordTo ?? "recording.har"
            return (responder, "recording \(upstream) into \(path)", (responder, path))
        }
        var responders: [any OriginResponder] = []
        var words: [String] = []
        if let har = settings.har {
            responders.append(try HARResponder(path: har, timing: settings.timing))
            words.append("HAR \(har)")
        }
        if let fixtures = settings.fixtures {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: fixtures, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw HARError(path: fixtures, problem: "is not a directory of fixtures")
            }
            let delay: Double
            if case .fixed(let ms) = settings.timing { delay = ms } else { delay = 0 }
            responders.append(FixtureResponder(directory: fixtures, delayMilliseconds: delay))
            words.append("fixtures \(fixtures)")
        }
        guard !responders.isEmpty else { return (SyntheticResponder(), "synthetic routes", nil) }
        let timing = settings.timing == .recorded ? "" : " (answers after \(settings.timing.description))"
        return (FirstMatchResponder(responders), words.joined(separator: ", then ") + timing, nil)
    }

    /// The proxy fault a `fault(kind)` step names, and for how many connections: `reset`,
    /// `reset-response`, `stall`, `refuse`, each optionally `:N`.
    static func fault(named kind: String) -> (ProxyFault, Int)? {
        let parts = kind.split(separator: ":", maxSplits: 1).map(String.init)
        guard let name = parts.first else { return nil }
        var count = 1
        if parts.count == 2 {
            guard let parsed = Int(parts[1]), parsed > 0 else { return nil }
            count = parsed
        }
        switch name {
        case "reset": return (.resetAfter(bytes: faultBytes, direction: .uplink), count)
        case "reset-response": return (.resetAfter(bytes: faultBytes, direction: .downlink), count)
        case "stall": return (.stall(afterBytes: faultBytes, direction: .uplink), count)
        case "refuse": return (.refuse, count)
        default: return nil
        }
    }

    /// Bytes a reset or stall lets through first: past a request line and headers, short of a body.
    static let faultBytes = 256
}
