import FrugalCore

/// Escapes text for HTML and SVG: every string that comes from a workload passes through here
/// (`TextSanitizer.html`, the one place of the project's sanitizers).
public enum HTMLEscaping {
    public static func escape(_ text: String) -> String { TextSanitizer.html(text) }
}
