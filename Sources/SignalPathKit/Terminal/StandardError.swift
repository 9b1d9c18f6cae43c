/// Diagnostics go to standard error, unbuffered, one whole line per call.
///
/// A progress line (`ProgressLine`) is drawn here too, and erased before any other text is
/// written (a message, or a result on a terminal that is also standard output), so that a message
/// never continues the progress line; the line's next update draws it again under the message.
public enum StandardError {
    /// True while a progress line is on the screen; guards the writes, so that a message and a
    /// progress update from two threads do not interleave.
    private static let progressShown = Protected(false)

    /// Writes `line` and a newline to file descriptor 2.
    public static func writeLine(_ line: String) {
        write(line + "\n")
    }

    /// Writes `text` as it is to file descriptor 2, after erasing the progress line.
    public static func write(_ text: String) {
        progressShown.withLock { shown in
            _ = StandardOutput.write((shown ? "\r\u{1B}[K" : "") + text, to: 2)
            shown = false
        }
    }

    /// Draws `line` as the progress line, in place of the one shown.
    static func showProgress(_ line: String) {
        progressShown.withLock { shown in
            _ = StandardOutput.write("\r\u{1B}[K" + line, to: 2)
            shown = true
        }
    }

    /// Erases the progress line, if one is shown: before a result goes to a terminal.
    public static func eraseProgress() {
        progressShown.withLock { shown in
            if shown { _ = StandardOutput.write("\r\u{1B}[K", to: 2) }
            shown = false
        }
    }

    /// True when standard error is a terminal (progress lines are shown only then).
    public static var isTerminal: Bool { isatty(2) == 1 }
}
