/// Diagnostics go to standard error, unbuffered, one whole line per call.
public enum StandardError {
    /// Writes `line` and a newline to file descriptor 2.
    public static func writeLine(_ line: String) {
        write(line + "\n")
    }

    /// Writes `text` as it is to file descriptor 2.
    public static func write(_ text: String) {
        _ = StandardOutput.write(text, to: 2)
    }

    /// True when standard error is a terminal (progress lines are shown only then).
    public static var isTerminal: Bool { isatty(2) == 1 }
}
