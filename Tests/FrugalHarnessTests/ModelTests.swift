import FrugalCore
@testable import FrugalHarness
import Foundation
import XCTest

/// Pure tests: profiles, the token bucket on a synthetic clock, the fault schedule.
final class ModelTests: XCTestCase {
    func testBuiltInProfilesAreNamedSourcedAndRoundTrip() throws {
        let names = NetworkProfile.builtIns.map(\.name)
        XCTAssertEqual(names, ["unshaped", "wifi", "lte", "3g", "edge", "very-bad-network", "offline"])
        for profile in NetworkProfile.builtIns {
            XCTAssertFalse(profile.sources.isEmpty, profile.name)
            XCTAssertEqual(NetworkProfile.named(profile.name), profile)
            let data = try JSONEncoder().encode(profile)
            XCTAssertEqual(try JSONDecoder().decode(NetworkProfile.self, from: data), profile)
        }
        XCTAssertEqual(NetworkProfile.threeG.downlinkBitsPerSecond, 1_600_000)
        XCTAssertEqual(NetworkProfile.threeG.roundTripTime, 0.150, accuracy: 1e-9)
        XCTAssertTrue(NetworkProfile.offline.isOffline)
        XCTAssertTrue(NetworkProfile.unshaped.isUnshaped)
        let json = String(decoding: try JSONEncoder().encode(NetworkProfile.offline), as: UTF8.self)
        XCTAssertTrue(json.contains(#""offline":true"#), json)
    }

    func testTrafficChunkCodable() throws {
        let chunk = TrafficChunk(connection: 3, direction: .downlink, time: 1.25, bytes: 1500)
        let data = try JSONEncoder().encode(chunk)
        XCTAssertEqual(try JSONDecoder().decode(TrafficChunk.self, from: data), chunk)
        XCTAssertTrue(String(decoding: data, as: UTF8.self).contains(#""direction":"downlink""#))
    }

    /// Drives the bucket the way ShapedStream does, with a synthetic clock whose timers
    /// fire late, and checks the long-run rate is still the configured one.
    func testTokenBucketKeepsRateDespiteLateTimers() {
        for lateness: UInt64 in [0, 2_000_000, 9_000_000] {
            var now: UInt64 = 1_000_000_000
            let start = now
            var bucket = TokenBucket(bitsPerSecond: 1_000_000, now: now)
            XCTAssertEqual(bucket.quantum, 1_500)
            var left = 1_000_000
            while left > 0 {
                let piece = min(left, bucket.quantum)
                let wait = bucket.delay(toSend: piece, now: now)
                if wait > 0 {
                    now += wait + lateness
                    continue
                }
                bucket.consume(piece, now: now)
                left -= piece
            }
            let seconds = Double(now - start) / 1e9
            // 8 s minus the initial full bucket (3,000 bytes = 24 ms), plus at most one late timer.
            XCTAssertEqual(seconds, 8.0, accuracy: 0.04, "lateness \(lateness) ns")
        }
    }

    /// A loaded machine fires the proxy's timers tens of milliseconds late (CI saw a megabyte on
    /// 3G arrive 3.6% late). While bytes wait for the link, the late time is the link's busy
    /// time and is credited in full; an idle link's tokens are still capped at the depth.
    func testABackloggedLinkKeepsItsRateWhenTimersFireAQuantumLateOrMore() {
        func seconds(lateness: UInt64, backlogged: Bool) -> Double {
            var now: UInt64 = 1_000_000_000
            let start = now
            var bucket = TokenBucket(bitsPerSecond: 1_000_000, now: now)
            var left = 1_000_000
            while left > 0 {
                let piece = min(left, bucket.quantum)
                let wait = bucket.delay(toSend: piece, now: now, backlogged: backlogged)
                if wait > 0 {
                    now += wait + lateness
                    continue
                }
                bucket.consume(piece, now: now)
                left -= piece
            }
            return Double(now - start) / 1e9
        }
        for lateness: UInt64 in [0, 15_000_000, 50_000_000, 200_000_000] {
            // 8 s minus the first full bucket (24 ms), plus at most the last timer's lateness.
            let taken = seconds(lateness: lateness, backlogged: true)
            XCTAssertGreaterThan(taken, 7.97, "lateness \(lateness) ns")
            XCTAssertLessThan(taken, 8.0 + Double(lateness) / 1e9 + 0.01, "lateness \(lateness) ns")
        }
        // Without the backlog (an idle link between pieces) the cap holds: late timers lose time.
        XCTAssertGreaterThan(seconds(lateness: 50_000_000, backlogged: false), 9.0)
    }

    func testTokenBucketQuantumScalesWithRate() {
        XCTAssertEqual(TokenBucket(bitsPerSecond: 240_000, now: 0).quantum, 1_500)
        XCTAssertEqual(TokenBucket(bitsPerSecond: 30_000_000, now: 0).quantum, 37_500)
        var bucket = TokenBucket(bitsPerSecond: 1_000_000, now: 0)
        bucket.setRate(bitsPerSecond: 100_000_000, now: 0)
        XCTAssertEqual(bucket.quantum, 125_000)
        // Full at the old depth (3,000 bytes): 122,000 bytes missing at 12.5 MB/s = 9.76 ms (+1 ns rounding guard).
        XCTAssertEqual(bucket.delay(toSend: 125_000, now: 0), 9_760_001)
    }

    func testFaultScheduleOneShotAndPersistent() {
        var schedule = FaultSchedule()
        schedule.add(.refuse, connections: 2)
        schedule.add(.stall(afterBytes: 10), connections: nil)
        XCTAssertEqual(schedule.take(), [.refuse, .stall(afterBytes: 10, direction: .downlink)])
        XCTAssertEqual(schedule.take(), [.refuse, .stall(afterBytes: 10, direction: .downlink)])
        XCTAssertEqual(schedule.take(), [.stall(afterBytes: 10, direction: .downlink)])
        schedule.clear()
        XCTAssertEqual(schedule.take(), [])
    }

    func testSplitMix64IsStable() {
        var random = SplitMix64(seed: 0)
        // First output of SplitMix64 seeded with 0, as published with the reference implementation.
        XCTAssertEqual(random.next(), 0xE220_A839_7B1D_CDAF)
        XCTAssertEqual(SplitMix64.seed(from: ""), 0xCBF2_9CE4_8422_2325)
    }

    func testDelayLineBudgetCoversBandwidthDelayProduct() {
        XCTAssertEqual(ShapedStream.highWater(bitsPerSecond: nil, delay: 0), 256 * 1024)
        XCTAssertEqual(ShapedStream.highWater(bitsPerSecond: nil, delay: 0.1), 16 * 1024 * 1024)
        // 30 Mbit/s × 100 ms = 375 kB in flight; budget is twice that plus four quanta.
        XCTAssertEqual(ShapedStream.highWater(bitsPerSecond: 30_000_000, delay: 0.1), 750_000 + 150_000)
    }

    func testDelayScheduleJitterIsDeterministicBoundedAndOrdered() {
        let seed = DelaySchedule.seed(profileSeed: 7, connection: 1, uplink: false)
        var a = DelaySchedule(latency: 0.100, jitter: 0.030, seed: seed)
        var b = DelaySchedule(latency: 0.100, jitter: 0.030, seed: seed)
        var c = DelaySchedule(latency: 0.100, jitter: 0.030, seed: seed ^ 1)
        var previous: UInt64 = 0
        var differs = false
        // One read every 50 ms: wider than the jitter span, so clamping rarely applies.
        for i in 0..<200 {
            let now = UInt64(i) * 50_000_000
            let due = a.due(readAt: now)
            XCTAssertEqual(due, b.due(readAt: now), "same seed, same delays")
            if due != c.due(readAt: now) { differs = true }
            XCTAssertGreaterThanOrEqual(due, previous, "never reordered")
            XCTAssertGreaterThanOrEqual(due, now + 70_000_000)
            XCTAssertLessThanOrEqual(due, now + 130_000_000)
            previous = due
        }
        XCTAssertTrue(differs, "another seed gives other delays")

        // Back-to-back reads: due times never go backwards even when the draw would.
        var d = DelaySchedule(latency: 0.010, jitter: 0.010, seed: 3)
        var last: UInt64 = 0
        for i in 0..<1_000 {
            let due = d.due(readAt: UInt64(i) * 1_000)
            XCTAssertGreaterThanOrEqual(due, last)
            last = due
        }
        XCTAssertGreaterThanOrEqual(d.finDue(readAt: 1_000_000), last, "FIN never overtakes data")
    }
}
