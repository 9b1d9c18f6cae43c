/// Makes text that came from a file (tags, file names) safe to show on a terminal.
public enum TerminalText {
    /// `text` with every control character, escape sequence introducer and bidirectional override
    /// shown escaped (`\e`, `\n`, `\x07`, `\u{202E}`), so nothing in it is interpreted by the terminal.
    /// Backslashes are doubled so that the escaping cannot be forged.
    public static func sanitized(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x5C: output += "\\\\"
            case 0x1B: output += "\\e"
            case 0x0A: output += "\\n"
            case 0x0D: output += "\\r"
            case 0x09: output += "\\t"
            case 0x00..<0x20, 0x7F: output += "\\x" + hex(scalar.value, width: 2)
            case 0x80...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                output += "\\u{" + hex(scalar.value, width: 4) + "}"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
