extension RuleCatalogue {
    static let networkingSection = "Performance Tuning › Tune Your Networking Code › Tips for Efficient Networking"

    /// Network.
    public static let network: [Rule] = [
        Rule(id: "network.transmit-in-bursts", category: .network, title: "Transmit in bursts",
             guideSection: reducePowerSection,
             guideQuote: "Transmit data in bursts rather than spreading out transmission packets over time.",
             measures: "radio energy of the trace ÷ radio energy of the same bytes sent in one burst", unit: "ratio",
             scoring: .logNormal(good: 1.5, poor: 4), calibration: rulesProposal, measured: false),
        Rule(id: "network.no-server-polling", category: .network, title: "Do not poll servers",
             guideSection: reducePowerSection,
             guideQuote: "Connect to external network servers only when needed, and do not poll those servers.",
             measures: "radio promotions (idle → connected) per minute", unit: "1/min",
             scoring: .logNormal(good: 0.5, poor: 3), calibration: rulesProposal, measured: false),
        Rule(id: "network.compact-transfers", category: .network, title: "Use compact data formats",
             guideSection: reducePowerSection,
             guideQuote: "When you must connect to the network, transmit the smallest amount of data needed to do the job. Use compact data formats, and do not include excess content that simply is ignored.",
             measures: "payload bytes ÷ deflate-compressed bytes", unit: "ratio",
             scoring: .logNormal(good: 1.2, poor: 3), calibration: rulesProposal, measured: false),
        Rule(id: "network.avoid-chatty-protocols", category: .network, title: "Avoid chatty protocols",
             guideSection: networkingSection,
             guideQuote: "Avoid using chatty protocols.",
             measures: "request round trips per 100 KB moved", unit: "1/100KB",
             scoring: .logNormal(good: 2, poor: 20), calibration: rulesProposal, measured: false),
        Rule(id: "network.enqueue-together", category: .network, title: "Enqueue transfers together",
             guideSection: reducePowerSection,
             guideQuote: "When using the NSURLSession class to enqueue multiple upload or download tasks, enqueue those items together rather than waiting for one to finish before starting the next one.",
             measures: "radio-active seconds ÷ radio-active seconds had the batch been issued at once", unit: "ratio",
             scoring: .logNormal(good: 1.2, poor: 3), calibration: rulesProposal, measured: false),
        Rule(id: "network.handle-failures", category: .network, title: "Handle network failures",
             guideSection: networkingSection,
             guideQuote: "you should be sure to make it as robust as possible when it comes to failure handling.",
             measures: "operations lost after injected connection resets", unit: "count",
             scoring: .binary(maxPassing: 0), calibration: rulesProposal, measured: false),
    ]
}
