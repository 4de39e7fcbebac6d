/// The conditions of a network link that Frugal's shaping proxy imposes on a
/// workload's sockets: bandwidth each way, one-way latency, jitter, or no link at all.
///
/// A profile is pure data. Numbers are *link-level* targets, applied to the bytes
/// of each TCP connection (like WebPageTest's packet-level shaping), not browser
/// request-level emulation. That matters when reading sources: Chrome DevTools
/// multiplies its targets by adjustment factors (throughput × 0.8 or 0.9, RTT ×
/// 3.75 or 5) only because it throttles per HTTP request and so cannot see TCP's own
/// round trips; Lighthouse documents the same factors as `DEVTOOLS_*_ADJUSTMENT_FACTOR`
/// (https://crbug.com/721112). A socket-level shaper must use the unadjusted targets,
/// so the built-ins below do.
///
/// Every built-in lists where its numbers come from in ``sources``; anything not
/// taken from a source is marked there as an assumption.
public struct NetworkProfile: Codable, Sendable, Equatable, Hashable {
    /// A short identifier, e.g. `"3g"`; the built-ins' names are what ``named(_:)`` accepts.
    public var name: String
    /// Bandwidth origin → device, in bits per second. `nil` means unlimited.
    public var downlinkBitsPerSecond: Int?
    /// Bandwidth device → origin, in bits per second. `nil` means unlimited.
    public var uplinkBitsPerSecond: Int?
    /// One-way latency in seconds, applied to each direction separately, so the
    /// round trip added by the link is `2 × latency`.
    public var latency: Double
    /// Maximum deviation, in seconds, added to or subtracted from ``latency`` per chunk.
    /// Drawn from a deterministic generator seeded by ``jitterSeed``, so two runs of
    /// the same workload see the same delays. Jitter never reorders bytes.
    public var jitter: Double
    /// Seed of the jitter generator (mixed with the connection id and direction).
    public var jitterSeed: UInt64
    /// When `true` there is no link: new connections are refused and open ones reset.
    public var isOffline: Bool
    /// Where the numbers come from (URLs with the constant's name), or an explicit
    /// statement that a number is an assumption.
    public var sources: [String]

    /// Creates a profile. Rates must be positive when given; latency and jitter non-negative.
    public init(
        name: String,
        downlinkBitsPerSecond: Int?,
        uplinkBitsPerSecond: Int?,
        latency: Double,
        jitter: Double = 0,
        jitterSeed: UInt64 = 0,
        isOffline: Bool = false,
        sources: [String]
    ) {
        precondition(downlinkBitsPerSecond.map { $0 > 0 } ?? true, "downlink rate must be > 0 or nil")
        precondition(uplinkBitsPerSecond.map { $0 > 0 } ?? true, "uplink rate must be > 0 or nil")
        precondition(latency >= 0 && jitter >= 0, "latency and jitter must be >= 0")
        self.name = name
        self.downlinkBitsPerSecond = downlinkBitsPerSecond
        self.uplinkBitsPerSecond = uplinkBitsPerSecond
        self.latency = latency
        self.jitter = jitter
        self.jitterSeed = jitterSeed
        self.isOffline = isOffline
        self.sources = sources
    }

    // The JSON key is `offline` (the vocabulary of DevTools and the brief); the Swift
    // name is `isOffline` so it cannot be confused with the static `offline` profile.
    private enum CodingKeys: String, CodingKey {
        case name, downlinkBitsPerSecond, uplinkBitsPerSecond, latency, jitter, jitterSeed
        case isOffline = "offline"
        case sources
    }

    /// Round-trip time the link adds: both directions' one-way latency.
    public var roundTripTime: Double { 2 * latency }

    /// Bits per second in `direction` (`nil` = unlimited).
    public func bitsPerSecond(_ direction: TrafficChunk.Direction) -> Int? {
        switch direction {
        case .downlink: return downlinkBitsPerSecond
        case .uplink: return uplinkBitsPerSecond
        }
    }

    /// True when the profile changes nothing: no rate limit, latency, jitter or outage.
    public var isUnshaped: Bool {
        downlinkBitsPerSecond == nil && uplinkBitsPerSecond == nil && latency == 0 && jitter == 0 && !isOffline
    }
}

// MARK: - Built-in profiles

extension NetworkProfile {
    static let devToolsPresets =
        "https://github.com/ChromeDevTools/devtools-frontend/blob/main/front_end/core/sdk/NetworkManager.ts"
    static let lighthouseConstants =
        "https://github.com/GoogleChrome/lighthouse/blob/main/core/config/constants.js"
    static let webPageTestConnectivity =
        "https://github.com/WPO-Foundation/webpagetest/blob/master/www/settings/connectivity.ini.sample"
    static let firefoxThrottling =
        "https://github.com/mozilla-firefox/firefox/blob/main/devtools/docs/user/network_monitor/throttling/index.rst"

    /// No shaping at all: the proxy only forwards and timestamps.
    public static let unshaped = NetworkProfile(
        name: "unshaped",
        downlinkBitsPerSecond: nil,
        uplinkBitsPerSecond: nil,
        latency: 0,
        sources: [
            "No shaping: the equivalent of WebPageTest's [Native] \"No Traffic Shaping\" (\(webPageTestConnectivity)) "
                + "and DevTools' NoThrottlingConditions (\(devToolsPresets)).",
        ]
    )

    /// Good Wi-Fi: 30 Mbit/s down, 15 Mbit/s up, 1 ms one-way.
    public static let wifi = NetworkProfile(
        name: "wifi",
        downlinkBitsPerSecond: 30_000_000,
        uplinkBitsPerSecond: 15_000_000,
        latency: 0.001,
        sources: [
            "Firefox DevTools throttling preset \"Wi-Fi\": download 30 Mbps, upload 15 Mbps, minimum latency 2 ms "
                + "(\(firefoxThrottling); devtools/client/shared/components/throttling/profiles.js).",
            "Firefox's 2 ms \"minimum latency\" is taken as the round trip, i.e. 1 ms one-way: an interpretation, "
                + "Firefox applies it per response.",
        ]
    )

    /// 4G/LTE: Chrome DevTools' "Fast 4G" targets, 9 Mbit/s down, 1.5 Mbit/s up, 60 ms RTT.
    public static let lte = NetworkProfile(
        name: "lte",
        downlinkBitsPerSecond: 9_000_000,
        uplinkBitsPerSecond: 1_500_000,
        latency: 0.030,
        sources: [
            "Chrome DevTools Fast4GConditions (\(devToolsPresets)): download 9 Mbps, upload 1.5 Mbps, "
                + "targetLatency 60 ms RTT (added June 2024, crbug.com/342406608). DevTools itself applies "
                + "×0.9 throughput and ×2.75 latency because it throttles per request; these are the targets.",
            "One-way latency = 60 ms RTT / 2 = 30 ms.",
        ]
    )

    /// Fast 3G / slow 4G: 1.6 Mbit/s down, 750 kbit/s up, 150 ms RTT.
    public static let threeG = NetworkProfile(
        name: "3g",
        downlinkBitsPerSecond: 1_600_000,
        uplinkBitsPerSecond: 750_000,
        latency: 0.075,
        sources: [
            "Lighthouse throttling.mobileSlow4G (\(lighthouseConstants)): rttMs 150, throughputKbps 1.6 * 1024 "
                + "(= 1638.4 kbit/s); \"These values align with WebPageTest's definition of Fast 3G\".",
            "Chrome DevTools Slow4GConditions, formerly \"Fast 3G\" (\(devToolsPresets)): download 1.6 * 1000 * 1000 / 8 "
                + "B/s, upload 750 * 1000 / 8 B/s, targetLatency 150 ms; DevTools applies ×0.9 throughput and "
                + "×3.75 latency (562.5 ms) for request-level throttling, not used here.",
            "WebPageTest [3GFast] (\(webPageTestConnectivity)): bwIn 1600000, bwOut 768000, latency 150 ms RTT.",
            "Chosen: 1,600,000 bit/s down (DevTools, WebPageTest), 750,000 bit/s up (DevTools, Lighthouse), "
                + "75 ms one-way (150 ms RTT / 2).",
        ]
    )

    /// EDGE (2.5G): 240 kbit/s down, 200 kbit/s up, 840 ms RTT.
    public static let edge = NetworkProfile(
        name: "edge",
        downlinkBitsPerSecond: 240_000,
        uplinkBitsPerSecond: 200_000,
        latency: 0.420,
        sources: [
            "WebPageTest [Edge] \"Mobile Edge (240 Kbps/200 Kbps 840ms RTT)\" (\(webPageTestConnectivity)): "
                + "bwIn 240000, bwOut 200000, latency 840.",
            "One-way latency = 840 ms RTT / 2 = 420 ms.",
        ]
    )

    /// A poor, unstable link: 500 kbit/s each way, 400 ms RTT, ±50 ms jitter.
    public static let veryBadNetwork = NetworkProfile(
        name: "very-bad-network",
        downlinkBitsPerSecond: 500_000,
        uplinkBitsPerSecond: 500_000,
        latency: 0.200,
        jitter: 0.050,
        jitterSeed: 0x6672_7567_616C, // "frugal"
        sources: [
            "Named after Apple's Network Link Conditioner \"Very Bad Network\" preset, whose numbers are not "
                + "published in text; this profile does not reproduce it.",
            "Rates and RTT from Chrome DevTools Slow3GConditions (\(devToolsPresets)): ~500 Kbps down and up "
                + "(500 * 1000 / 8 B/s before DevTools' ×0.8 adjustment), targetLatency 400 ms RTT "
                + "(DevTools applies ×5 = 2000 ms per request). One-way latency = 400 ms / 2 = 200 ms.",
            "Jitter ±50 ms is an assumption (no public source); packet loss is not modelled.",
        ]
    )

    /// No network: connections are refused, open ones reset.
    public static let offline = NetworkProfile(
        name: "offline",
        downlinkBitsPerSecond: nil,
        uplinkBitsPerSecond: nil,
        latency: 0,
        isOffline: true,
        sources: [
            "Chrome DevTools OfflineConditions (\(devToolsPresets)): download 0, upload 0. "
                + "Frugal models it as refused connections (RST) rather than zero bandwidth.",
        ]
    )

    /// Every built-in profile, in order from best to worst.
    public static let builtIns: [NetworkProfile] = [.unshaped, .wifi, .lte, .threeG, .edge, .veryBadNetwork, .offline]

    /// The built-in profile called `name` (`"unshaped"`, `"wifi"`, `"lte"`, `"3g"`, `"edge"`,
    /// `"very-bad-network"`, `"offline"`), or `nil`.
    public static func named(_ name: String) -> NetworkProfile? {
        builtIns.first { $0.name == name }
    }

    /// A profile for tests and benchmarks: exact numbers, no claim to model a real network.
    ///
    /// - Parameters:
    ///   - downlinkBitsPerSecond: origin → device rate, `nil` = unlimited.
    ///   - uplinkBitsPerSecond: device → origin rate, `nil` = unlimited.
    ///   - latency: one-way latency in seconds, each direction.
    ///   - jitter: ± seconds around `latency`.
    ///   - seed: jitter seed.
    public static func test(
        name: String = "test",
        downlinkBitsPerSecond: Int? = nil,
        uplinkBitsPerSecond: Int? = nil,
        latency: Double = 0,
        jitter: Double = 0,
        seed: UInt64 = 0
    ) -> NetworkProfile {
        NetworkProfile(
            name: name,
            downlinkBitsPerSecond: downlinkBitsPerSecond,
            uplinkBitsPerSecond: uplinkBitsPerSecond,
            latency: latency,
            jitter: jitter,
            jitterSeed: seed,
            sources: ["Test profile: numbers chosen by the caller, not a model of a real network."]
        )
    }
}
