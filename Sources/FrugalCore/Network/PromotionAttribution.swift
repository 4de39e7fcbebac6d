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
}
