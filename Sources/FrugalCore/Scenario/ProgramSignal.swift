import Foundation

/// The signals a black-box program can be given for the app's life (`memoryWarningSignal`,
/// `inputSignal` of a `kind: program` entry in frugal.yml): names as `kill -l` spells them.
public enum ProgramSignal {
    /// The signals a program can be configured to get, by name.
    public static let names: [String: Int32] = ["HUP": SIGHUP, "INT": SIGINT, "QUIT": SIGQUIT, "USR1": SIGUSR1, "USR2": SIGUSR2,
                                                "ALRM": SIGALRM, "TERM": SIGTERM, "WINCH": SIGWINCH, "PWR": SIGPWR, "URG": SIGURG,
                                                "TTIN": SIGTTIN, "TTOU": SIGTTOU, "PIPE": SIGPIPE, "CHLD": SIGCHLD, "CONT": SIGCONT]

    /// A signal's number from its name (`USR1`, `SIGUSR1`), a real-time one (`RTMIN+2`), or its
    /// number; nil for anything else, and for `KILL` and `STOP`, which no program can catch.
    public static func number(_ text: String) -> Int32? {
        let upper = text.uppercased()
        let name = upper.hasPrefix("SIG") ? String(upper.dropFirst(3)) : upper
        var number: Int32?
        if let value = Int32(text), value > 0, value < 65 { number = value }
        else if let known = names[name] { number = known }
        else if name.hasPrefix("RTMIN+"), let offset = Int32(name.dropFirst(6)), offset >= 0 { number = 34 + offset }
        else if name == "RTMIN" { number = 34 }
        guard let number, number != SIGKILL, number != SIGSTOP, number < 65 else { return nil }
        return number
    }

    /// `SIGUSR1`-style name of a number, for messages and reports.
    public static func name(_ number: Int32) -> String {
        if let name = names.first(where: { $0.value == number })?.key { return "SIG" + name }
        return number >= 34 ? "SIGRTMIN+\(number - 34)" : "signal \(number)"
    }
}
