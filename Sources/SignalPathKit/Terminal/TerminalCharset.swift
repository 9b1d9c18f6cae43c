/// Whether text for people may use characters beyond ASCII (✓, ✗, ±, →), by the locale.
public enum TerminalCharset: Sendable, Equatable {
    case utf8, ascii

    /// POSIX order: the first of LC_ALL, LC_CTYPE and LANG that is set and not empty names the
    /// character set; UTF-8 when it says so (`en_US.UTF-8`, `C.utf8`), ASCII otherwise — also
    /// when none is set, the C locale.
    public static func detect(environment: [String: String]) -> TerminalCharset {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let normalized = String(locale.lowercased().filter { $0 != "-" })
        return normalized.contains("utf8") ? .utf8 : .ascii
    }
}
