/// The app states of the guide's Table 3-1.
public enum AppState: String, Codable, Sendable, CaseIterable {
    case notRunning = "not-running"
    case inactive
    case active
    case background
    case suspended
}
