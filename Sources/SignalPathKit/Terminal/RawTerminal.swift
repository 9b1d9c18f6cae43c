/// The terminal in full-screen mode: raw keyboard input (no echo, no line editing, Ctrl-C as a
/// key), the alternate screen and a hidden cursor. `restore()` puts everything back; it runs on
/// quit, on errors (deinit) and from the SIGINT/SIGTERM/SIGHUP handling of the caller.
///
/// Screen: standard output. Keys: standard input when it is a terminal, else the controlling
/// terminal (`/dev/tty`, as `less` does), so a loop whose standard input carries audio still
/// reads keys.
public final class RawTerminal: Terminal {
    /// Where keys come from.
    public enum Keyboard: Sendable {
        /// Standard input if it is a terminal, else /dev/tty; an error when neither is.
        case required
        /// The same, or no keys at all (Ctrl-C then stays a signal).
        case optional
        /// Only /dev/tty, and only when standard input is not a terminal too (standard input
        /// carries data: keys read from it would be taken from the data).
        case besideStandardInput
    }

    private var original = termios()
    /// The descriptor keys are read from, or nil (no keyboard).
    private let keys: Int32?
    private let ownsKeys: Bool
    private var active = false

    /// `signals`: Ctrl-C stays SIGINT instead of arriving as a key — for a
    /// loop that can block elsewhere (record waiting for audio) and must still be stopped.
    public init(keyboard: Keyboard = .required, signals: Bool = false) throws(SignalPathError) {
        var descriptor: Int32?
        var owned = false
        if keyboard != .besideStandardInput, isatty(0) == 1 {
            descriptor = 0
        } else if keyboard == .required || isatty(0) != 1 {
            let tty = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
            if tty >= 0 {
                descriptor = tty
                owned = true
            }
        }
        if let opened = descriptor, tcgetattr(opened, &original) != 0 {
            if owned { close(opened) }
            descriptor = nil
            owned = false
        }
        if descriptor == nil && keyboard == .required {
            throw .invalidRequest(path: "-", reason: "no terminal to read keys from (standard input is not one, and /dev/tty cannot be opened)")
        }
        keys = descriptor
        ownsKeys = owned
        if let keys {
            var raw = original
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN | (signals ? 0 : ISIG))
            raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
            // Reads return at once with what is there (poll decides when to read).
            withUnsafeMutableBytes(of: &raw.c_cc) { cc in
                cc[Int(VMIN)] = 0
                cc[Int(VTIME)] = 0
            }
            tcsetattr(keys, TCSAFLUSH, &raw)
        }
        active = true
        StandardOutput.write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
    }

    deinit { restore() }

    /// Leaves the alternate screen, shows the cursor and restores the terminal's modes.
    public func restore() {
        guard active else { return }
        active = false
        StandardOutput.write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        if let keys {
            tcsetattr(keys, TCSAFLUSH, &original)
            if ownsKeys { close(keys) }
        }
    }

    /// The terminal's size, else COLUMNS × LINES, else 80 × 24.
    public var size: TerminalSize { TerminalSize.current(environment: ProcessEnvironment.current) ?? TerminalSize(columns: 80, rows: 24) }

    public func write(_ text: String) -> Bool { StandardOutput.write(text) }

    /// Keys typed within `timeout` seconds (none when nothing was typed, or when there is no keyboard).
    public func readKeys(timeout: Double) -> [TerminalKey] {
        let milliseconds = Int32(max(0, min(timeout, 3600)) * 1000)
        guard let keys else {
            _ = poll(nil, 0, milliseconds)
            return []
        }
        var descriptor = pollfd(fd: keys, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { read(keys, $0.baseAddress, 64) }
        return count > 0 ? TerminalKey.decode(Array(buffer[0..<count])) : []
    }
}
