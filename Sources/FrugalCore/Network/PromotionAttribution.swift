/// Splits a radio report's promotions into those the user or the launch asked for and those
/// nobody asked for, for `network.no-server-polling`: "connect ... only when needed".
public enum PromotionAttribution {
    /// A promotion is prompted when a launch, foreground or input handler started within this
    /// many seconds before the radio had to be up: the app connected because it was asked to.
    public static let promptWindowSeconds = 2.0

    /// Handler names that count as the user or the system asking for content.
    public static func isPrompt(_ handlerName: String) -> Bool {
        handlerName.hasPrefix("input:") || handlerName == "didFinishLaunching" || handlerName == "didBecomeActive"
            || handlerName == "willEnterForeground"
    }

    /// The end times (seconds since exec) of the promotions in `report` that no prompt preceded
    /// within `promptWindowSeconds`; `prompts` are the prompt handlers' start times.
    public static func unprompted(_ report: RadioReport, prompts: [Double]) -> [RadioInterval] {
        report.timeline.filter { interval in
            interval.state == .promotion && !prompts.contains { $0 <= interval.end && interval.end - $0 <= promptWindowSeconds }
        }
    }

    /// The rule's own window: promotions are judged per minute.
    public static let windowSeconds = 60.0

    /// Unprompted promotions per minute, without extrapolating from one event: a run of a minute
    /// or more is a rate; a shorter one with two or more promotions is a rate too (their spacing is
    /// seen), but a single promotion (or none) in less than a minute is judged as the count it is:
    /// one fetch in a 4-second run is not "15 a minute".
    public static func perMinute(count: Int, seconds: Double) -> (value: Double, display: String) {
        let plural = count == 1 ? "" : "s"
        guard seconds > 0 else { return (Double(count), "\(count) unprompted promotion\(plural)") }
        if seconds >= windowSeconds || count >= 2 {
            let rate = Double(count) / (seconds / windowSeconds)
            return (rate, "\(DisplayFormat.number(rate)) unprompted promotions/min")
        }
        if count == 0 { return (0, "0 unprompted promotions in \(DisplayFormat.number(seconds)) s") }
        return (Double(count), "1 unprompted promotion in \(DisplayFormat.number(seconds)) s, judged as a count (shorter than the rule's 1-minute window: one event is no rate)")
    }
}
