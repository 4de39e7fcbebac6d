/// Requests that could have been one: `network.avoid-chatty-protocols`' evidence. A chatty
/// protocol makes the app wait for many small round trips where one request would carry the
/// same; judged from the requests the origin read (every client alike), not from a ratio of
/// requests to bytes.
public struct ChattyExchange: Sendable, Equatable {
    /// The host the requests went to.
    public var host: String
    /// The requests, in the order they started.
    public var requests: [WireRequest]
    /// Round trips taken one after another: a request that started only after every earlier one
    /// of the exchange had ended waited for them (a new round trip, a wave); requests in flight
    /// together share one (the guide asks for tasks to be enqueued together).
    public var roundTrips: Int
    /// Round trips the app waited for one answer before asking the next: waves after the first
    /// that hold a single request. A wave of several requests is what the app enqueued together,
    /// worked through by the client's connections (16 messages on 6 connections take 3 waves):
    /// that is the guide's own advice for NSURLSession, judged by network.enqueue-together.
    public var extraRoundTrips: Int
    /// The requests of each wave.
    public var waveSizes: [Int]
    public var start: Double { requests.first?.start ?? 0 }
    public var end: Double { requests.map { $0.end ?? $0.firstByte ?? $0.start }.max() ?? start }

    /// A request is small when its bodies both ways fit in TCP's initial congestion window (10
    /// segments of 1,460 B, RFC 6928): its cost is its round trip, not its bytes, so merging it
    /// with its neighbours saves that round trip. A larger one is bandwidth-bound.
    public static let smallBytes = 14_600

    /// Groups `requests` into exchanges that could have been one request: to the same host, each
    /// small, each starting within `gapSeconds` of the end of the exchange so far (ARO's 1.5 s
    /// burst silence: the radio is still up from the previous one), with no input step between
    /// (`prompts`, seconds since exec: what the user asked for separately is not one request).
    /// Only exchanges of two requests or more are returned.
    public static func group(_ requests: [WireRequest], prompts: [Double],
                             gapSeconds: Double = BurstCriteria.aro.silenceSeconds) -> [ChattyExchange] {
        var open: [String: [WireRequest]] = [:]
        var done: [(host: String, requests: [WireRequest])] = []
        func end(_ request: WireRequest) -> Double { request.end ?? request.firstByte ?? request.start }
        for request in requests.sorted(by: { $0.start < $1.start }) {
            let host = request.host ?? ""
            guard request.requestBodyBytes + request.responseBodyBytes < smallBytes else {
                if let current = open.removeValue(forKey: host) { done.append((host, current)) }
                continue
            }
            if let current = open[host], let last = current.map(end).max() {
                let first = current[current.count - 1].start
                let prompted = prompts.contains { $0 > first && $0 <= request.start }
                if request.start <= last + gapSeconds && !prompted {
                    open[host]?.append(request)
                    continue
                }
                done.append((host, current))
            }
            open[host] = [request]
        }
        done += open.map { ($0.key, $0.value) }
        return done.filter { $0.requests.count >= 2 }.map { host, requests in
            var waves: [Int] = []
            var latestEnd = -Double.infinity
            for request in requests {
                if request.start >= latestEnd { waves.append(1) } else { waves[waves.count - 1] += 1 }
                latestEnd = max(latestEnd, end(request))
            }
            return ChattyExchange(host: host, requests: requests, roundTrips: waves.count,
                                  extraRoundTrips: waves.dropFirst().filter { $0 == 1 }.count, waveSizes: waves)
        }.sorted { $0.start < $1.start }
    }
}
