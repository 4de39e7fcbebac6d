/// The network scenarios. The shaping proxy starts each run with the LTE link (DevTools' Fast 4G
/// targets) and the device radio is LTE (Huang et al. 2012), whose tail is 11.6 s: each
/// scenario is as short as its point allows.
extension ScenarioCatalogue {
    /// 46 s with nothing asked: long enough for messages every 3 s to hold the radio up for
    /// several tails, where one burst pays one.
    public static let sync = Scenario(
        name: "sync",
        summary: "launch, 46 s idle (the app syncs on its own), terminate",
        steps: [.launch, .wait(seconds: 46), .terminate]
    )

    /// One refresh by the user, then 29 s: a poll every 14 s (longer than the LTE tail, so each
    /// one promotes the radio) shows as two unprompted promotions and a periodic group.
    public static let feed = Scenario(
        name: "feed",
        summary: "launch, 1 s, input(refresh), 29 s idle, terminate",
        steps: [.launch, .wait(seconds: 1), .input(kind: "refresh"), .wait(seconds: 29), .terminate]
    )

    /// One request to upload a handful of photos.
    public static let upload = Scenario(
        name: "upload",
        summary: "launch, 0.5 s, input(upload), 4 s, terminate",
        steps: [.launch, .wait(seconds: 0.5), .input(kind: "upload"), .wait(seconds: 4), .terminate]
    )

    /// One screen's worth of items loaded.
    public static let api = Scenario(
        name: "api",
        summary: "launch, 0.5 s, input(load), 5 s, terminate",
        steps: [.launch, .wait(seconds: 0.5), .input(kind: "load"), .wait(seconds: 5), .terminate]
    )

    /// Two syncs that meet failures: a connection reset, then 3 s offline, then back on LTE.
    public static let flaky = Scenario(
        name: "flaky",
        summary: "launch, fault(reset), input(sync), 2 s, offline, input(sync), 3 s, back on lte, 7 s, terminate",
        steps: [.launch, .wait(seconds: 0.5), .fault(kind: "reset"), .input(kind: "sync"), .wait(seconds: 2),
                .network(profile: "offline"), .input(kind: "sync"), .wait(seconds: 3), .network(profile: "lte"),
                .wait(seconds: 7), .terminate]
    )

    /// The network scenarios.
    public static let network: [Scenario] = [sync, feed, upload, api, flaky]
}
