/// The terminal in full-screen mode: raw keyboard input (no echo, no line editing, Ctrl-C as a
/// key), the alternate screen and a hidden cursor. `restore()` puts everything back; it runs on
/// quit, on errors (deinit) and from the SIGINT/SIGTERM/SIGHUP handling of the caller.
public final class RawTerminal {
    private var original = termios()
    private var active = false

    public init() throws(SignalPathError) {
        guard tcgetattr(0, &original) == 0 else {
            throw .invalidRequest(path: "-", reason: "standard input is not a terminal; keys cannot be read")
        }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        // Reads return at once with what is there (poll decides when to read).
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        tcsetattr(0, TCSAFLUSH, &raw)
        active = true
        StandardOutput.write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
    }

    deinit { restore() }

    /// Leaves the alternate screen, shows the cursor and restores the terminal's modes.
    public func restore() {
        guard active else { return }
        active = false
        StandardOutput.write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        tcsetattr(0, TCSAFLUSH, &original)
    }

    /// Keys typed within `timeout` seconds (none when nothing was typed).
    public func readKeys(timeout: Double) -> [TerminalKey] {
        var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(max(0, timeout * 1000))) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, 64) }
        return count > 0 ? TerminalKey.decode(Array(buffer[0..<count])) : []
    }
}
