/// The one place where text from workloads, commands, configs and reports is made safe for an
/// output. Names and messages can hold anything a process can write: newlines that would start
/// a GitHub workflow command, terminal escapes (ESC [ ...), raw HTML in a pull-request comment,
/// bytes XML 1.0 cannot hold. Every renderer and every line on standard output and standard
/// error passes such text through one of these.
public enum TextSanitizer {
    /// Control characters (C0, DEL, C1) and the bidirectional overrides shown as visible escapes
    /// (`\n`, `\t`, `\u{1B}`), so no line can be split and no terminal sequence can act.
    public static func visible(_ text: String) -> String { visible(text, keeping: []) }

    /// `visible(_:)`, leaving the controls in `kept` as they are.
    static func visible(_ text: String, keeping kept: Set<Unicode.Scalar>) -> String {
        func escaped(_ scalar: Unicode.Scalar) -> Bool { isInvisibleControl(scalar) && !kept.contains(scalar) }
        guard text.unicodeScalars.contains(where: escaped) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard escaped(scalar) else { result.unicodeScalars.append(scalar); continue }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return result
    }

    /// One line of at most `limit` characters: controls made visible, the rest cut with a note of
    /// how much was left out (an error message quoting a 50 MB file stays one short line).
    public static func oneLine(_ text: String, limit: Int = 400) -> String {
        let shown = visible(text)
        guard shown.count > limit else { return shown }
        let kept = shown.prefix(max(0, limit))
        return kept + "… (\(shown.count - kept.count) more characters)"
    }

    /// Text for HTML and SVG, in elements and quoted attributes. Control characters are shown
    /// visibly: HTML forbids most of them, and a reader should see that they were there.
    public static func html(_ text: String) -> String {
        let shown = visiblePreservingLines(text)
        // By bytes: the five are ASCII, so no byte of another character is one of them. A lookup
        // by Character missed one that a combining mark followed (`"\u{301}` is one Character), and
        // grapheme breaking and hashing each Character cost ~4 ms of a `frugal run`'s report page.
        func special(_ byte: UInt8) -> Bool { byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22 || byte == 0x27 }
        guard shown.utf8.contains(where: special) else { return shown }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(shown.utf8.count + 32)
        for byte in shown.utf8 {
            switch byte {
            case 0x26: bytes.append(contentsOf: "&amp;".utf8)
            case 0x3C: bytes.append(contentsOf: "&lt;".utf8)
            case 0x3E: bytes.append(contentsOf: "&gt;".utf8)
            case 0x22: bytes.append(contentsOf: "&quot;".utf8)
            case 0x27: bytes.append(contentsOf: "&#39;".utf8)
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `text` with each character found in `replacements` replaced.
    static func replacing(_ text: String, _ replacements: [Character: String]) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            if let replacement = replacements[character] { result += replacement } else { result.append(character) }
        }
        return result
    }

    /// Text for XML 1.0 (JUnit) text and attributes: escaped as HTML, and characters XML 1.0
    /// cannot hold at all (U+FFFE, U+FFFF; controls are already visible) shown as escapes.
    public static func xml(_ text: String) -> String {
        let allowed = String(String.UnicodeScalarView(text.unicodeScalars.flatMap { scalar -> [Unicode.Scalar] in
            scalar.value == 0xFFFE || scalar.value == 0xFFFF ? Array("\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars) : [scalar]
        }))
        return html(allowed)
    }

    /// Text made inert in Markdown (a GitHub comment): HTML tags and entities escaped, Markdown's
    /// punctuation backslash-escaped (no links, images, emphasis or code spans), table pipes
    /// escaped, and everything on one line with controls visible.
    public static func markdown(_ text: String) -> String {
        var replacements: [Character: String] = ["&": "&amp;", "<": "&lt;", ">": "&gt;"]
        for punctuation in "\\`*_[]()!|#~{}" { replacements[punctuation] = "\\" + String(punctuation) }
        return replacing(visible(text), replacements)
    }

    /// A GitHub Actions workflow command's message (GitHub's `escapeData`), with controls other
    /// than CR and LF made visible so nothing reaches the runner's log raw.
    public static func annotationData(_ text: String) -> String {
        visiblePreservingLines(text).replacingOccurrences(of: "%", with: "%25")
            .replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A workflow command's property (GitHub's `escapeProperty`).
    public static func annotationProperty(_ text: String) -> String {
        annotationData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    /// Control characters made visible except newline, carriage return and tab, which multi-line
    /// text (a stack in a tooltip, an annotation's body) keeps.
    static func visiblePreservingLines(_ text: String) -> String { visible(text, keeping: ["\n", "\r", "\t"]) }

    /// C0 controls, DEL, C1 controls, and the Unicode bidirectional overrides and isolates
    /// (which can make a terminal or a browser show text in another order than it is).
    static func isInvisibleControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
