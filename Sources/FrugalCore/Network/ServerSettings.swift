/// What the run's origin server answers with, when the app needs its own server's responses
/// rather than the synthetic routes (`frugal.yml`'s `server:`, `frugal run --fixtures/--har`,
/// `frugal record --upstream`). With none of them set the origin serves its synthetic routes.
public struct ServerSettings: Codable, Sendable, Equatable {
    /// How fast replayed responses are answered (the link's shaping applies on top).
    public enum Timing: Codable, Sendable, Equatable {
        /// At the server time the HAR recorded for each entry (`timings.wait`); fixtures answer at once.
        case recorded
        /// After this many milliseconds, every response.
        case fixed(milliseconds: Double)

        /// The longest a response may be held back, ms (10 minutes), set or recorded: every wait
        /// has a maximum, and a longer one is refused with the place it came from.
        public static let maximumMilliseconds: Double = 600_000

        /// `recorded`, or a number of milliseconds (`40`, `40ms`); nil for anything else.
        public static func parse(_ text: String) -> Timing? {
            if text == "recorded" { return .recorded }
            let number = text.hasSuffix("ms") ? String(text.dropLast(2)) : text
            guard let value = Double(number), value.isFinite, value >= 0, value <= maximumMilliseconds else { return nil }
            return .fixed(milliseconds: value)
        }

        public var description: String {
            switch self {
            case .recorded: return "recorded"
            case .fixed(let ms): return "\(ms) ms"
            }
        }
    }

    /// A directory of fixture files (absolute path): request path → file.
    public var fixtures: String?
    /// A HAR 1.2 file (absolute path) whose entries are replayed.
    public var har: String?
    public var timing: Timing
    /// Recording: every request is forwarded to this `http://host[:port][/prefix]` server and the
    /// exchanges are written to `recordTo` as HAR.
    public var upstream: String?
    /// Where a recording's HAR is written (absolute path).
    public var recordTo: String?

    public init(fixtures: String? = nil, har: String? = nil, timing: Timing = .recorded, upstream: String? = nil, recordTo: String? = nil) {
        self.fixtures = fixtures
        self.har = har
        self.timing = timing
        self.upstream = upstream
        self.recordTo = recordTo
    }

    /// Whether anything replaces the synthetic routes.
    public var servesOwnResponses: Bool { fixtures != nil || har != nil || upstream != nil }

    /// `other`'s settings where it has them, these elsewhere (a scenario's `server:` over its app's).
    public func overridden(by other: ServerSettings?) -> ServerSettings {
        guard let other else { return self }
        var merged = self
        if other.fixtures != nil || other.har != nil {
            merged.fixtures = other.fixtures
            merged.har = other.har
        }
        if other.timing != .recorded { merged.timing = other.timing }
        if other.upstream != nil {
            merged.upstream = other.upstream
            merged.recordTo = other.recordTo
        }
        return merged
    }
}
